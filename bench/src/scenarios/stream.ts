import { performance } from 'node:perf_hooks'
import { createSearchLayer } from '@search-layer/engine'
import type { ScenarioContext } from '../_context.js'
import { rssMb } from '../_context.js'
import { startRemoteEmulator } from '../_remote-emulator.js'
import type { VariantResult } from '../_report.js'
import { summarize } from '../_stats.js'

/** The fast engines answer at this latency (ms); Tavily is the slow one. */
const FAST_MS = 50
const SLOW_MS = 800

/**
 * Scenario 10: time to first result with one slow engine. The same deep search (4 engines) read two ways: `stream()`
 * until the first `results` event with results (what the web app shows first), and `search()` until the response.
 */
export async function streamScenario(ctx: ScenarioContext): Promise<VariantResult[]> {
  const emu = await startRemoteEmulator({ latencyMs: FAST_MS })
  try {
    await emu.latency('tavily', SLOW_MS)
    const home = await ctx.tempHome()
    const layer = createSearchLayer({ env: { ...emu.env, HOME: home }, cache: false, rateLimits: false })
    const iterations = ctx.quick ? 5 : 30
    const warmup = ctx.quick ? 2 : 5
    const firsts: number[] = []
    const streamTotals: number[] = []
    const fulls: number[] = []
    for (let i = 0; i < warmup + iterations; i++) {
      const request = { query: `Bun vs Deno ${i}`, mode: 'deep', maxQueries: 1, deadlineMs: 10_000 } as const
      let t0 = performance.now()
      let first: number | undefined
      for await (const event of layer.stream(request))
        if (event.type === 'results' && event.results.length > 0) first ??= performance.now() - t0
      const streamTotal = performance.now() - t0
      t0 = performance.now()
      await layer.search(request)
      const full = performance.now() - t0
      if (i < warmup) continue
      firsts.push(first ?? streamTotal)
      streamTotals.push(streamTotal)
      fulls.push(full)
    }
    const first = summarize(firsts)
    const full = summarize(fulls)
    const streamTotal = summarize(streamTotals)
    const shape = `4 engines, 1 query; brave/exa/grok at ${FAST_MS} ms, tavily at ${SLOW_MS} ms`
    ctx.log(`stream: first results p50 ${first.p50} ms vs full response p50 ${full.p50} ms (${shape})`)
    return [
      {
        scenario: '10 stream',
        variant: 'time to first result (stream)',
        latency: first,
        throughput: { value: 1000 / first.mean, unit: 'searches/s' },
        upstreamCalls: 4,
        rssMb: rssMb(),
        extra: { streamTotalMs: streamTotal, shape },
        note: `first re-ranked results; the stream ends at p50 ${streamTotal.p50} ms; ${shape}`,
      },
      {
        scenario: '10 stream',
        variant: 'full response (search)',
        latency: full,
        throughput: { value: 1000 / full.mean, unit: 'searches/s' },
        upstreamCalls: 4,
        rssMb: rssMb(),
        extra: { shape },
        note: `waits for the slowest engine; ${shape}`,
      },
    ]
  } finally {
    await emu.close()
  }
}
