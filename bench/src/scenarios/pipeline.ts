import { performance } from 'node:perf_hooks'
import { createSearchLayer } from '@search-layer/engine'
import type { ScenarioContext } from '../_context.js'
import { rssMb } from '../_context.js'
import { startRemoteEmulator } from '../_remote-emulator.js'
import type { VariantResult } from '../_report.js'
import { slowestSpanMs, summarize } from '../_stats.js'

/** "Bun vs Deno" classifies as a comparison: deep mode, three sub-queries, all four providers. */
export const PIPELINE_REQUEST = {
  query: 'Bun vs Deno',
  intent: 'auto',
  mode: 'deep',
  num: 10,
  deadlineMs: 10_000,
} as const

/**
 * Scenario 1: one deep search (3 sub-queries × 4 providers × 10 results) in-process, with the emulator in
 * its own process. Overhead = total − the slowest upstream call as the emulator logged it (ms resolution).
 */
export async function pipelineScenario(
  ctx: ScenarioContext,
  latencies: readonly number[] = [0, 200],
): Promise<VariantResult[]> {
  const out: VariantResult[] = []
  for (const latencyMs of latencies) {
    const emu = await startRemoteEmulator({ latencyMs })
    try {
      const home = await ctx.tempHome()
      const layer = createSearchLayer({ env: { ...emu.env, HOME: home }, cache: false, rateLimits: false })
      const iterations = ctx.quick ? (latencyMs ? 5 : 20) : latencyMs ? 40 : 300
      const warmup = ctx.quick ? 3 : 20
      const totals: number[] = []
      const overheads: number[] = []
      let calls = 0
      let shape = ''
      for (let i = 0; i < warmup + iterations; i++) {
        const mark = await emu.mark()
        const t0 = performance.now()
        const res = await layer.search(PIPELINE_REQUEST)
        const total = performance.now() - t0
        const spans = await emu.spans(mark)
        if (i < warmup) continue
        totals.push(total)
        overheads.push(total - slowestSpanMs(spans))
        calls += spans.length
        const ok = Object.values(res.providers).filter((p) => p.status === 'ok').length
        shape = `${res.queries.length} queries × ${ok} providers ok → ${res.count} merged results`
      }
      const total = summarize(totals)
      const overhead = summarize(overheads)
      out.push({
        scenario: '1 pipeline',
        variant: `deep search, latency ${latencyMs} ms`,
        latency: total,
        throughput: { value: 1000 / total.mean, unit: 'searches/s' },
        upstreamCalls: calls / iterations,
        rssMb: rssMb(),
        extra: { overheadMs: overhead, shape },
        note: `overhead p50 ${overhead.p50} / p95 ${overhead.p95} ms; ${shape}`,
      })
      ctx.log(`pipeline @${latencyMs} ms: total p50 ${total.p50} ms, overhead p50 ${overhead.p50} ms (${shape})`)
    } finally {
      await emu.close()
    }
  }
  return out
}
