import { performance } from 'node:perf_hooks'
import type { PaceStore } from '@search-layer/core/http'
import { createSearchLayer } from '@search-layer/engine'
import type { ScenarioContext } from '../_context.js'
import { rssMb } from '../_context.js'
import { zeroKeyEnv } from '@search-layer/testkit'
import { startRemoteEmulator } from '../_remote-emulator.js'
import type { VariantResult } from '../_report.js'
import { slowestSpanMs, summarize } from '../_stats.js'

/** "Bun vs Deno" classifies as a comparison: deep mode, three sub-queries, all four providers. */
const PIPELINE_REQUEST = {
  query: 'Bun vs Deno',
  intent: 'auto',
  mode: 'deep',
  num: 10,
  deadlineMs: 10_000,
} as const

/** A factual query with no key set: DuckDuckGo (the keyless fallback) and Wikipedia (the factual vertical) answer. */
const ZERO_KEY_REQUEST = {
  query: 'what is a monad',
  intent: 'auto',
  num: 10,
  deadlineMs: 10_000,
} as const

type Emulator = Awaited<ReturnType<typeof startRemoteEmulator>>
type Variant = {
  name: string
  /**
   * A source paces itself (DuckDuckGo: one request a second, whatever the rate-limit setting): the layer gets a pace
   * store that grants every slot at once, so searches run back to back and warm up like the keyed ones. That wait
   * is politeness towards the real service, not the pipeline's own time, and the emulator does not need it.
   */
  unpaced?: boolean
  env: (emu: Emulator) => Record<string, string | undefined>
  request: typeof PIPELINE_REQUEST | typeof ZERO_KEY_REQUEST
}

// What a new user has: no key or token variable and no SearXNG; only the base URLs point at the emulator.
const zeroKeysOf = (emu: Emulator) => ({
  ...zeroKeyEnv(emu.env),
  SEARCH_LAYER_KEYLESS: 'on',
})

// Grants every slot when asked: no source waits for its pace (see `unpaced`).
const GRANTING_PACE_STORE: PaceStore = { reserve: async (_key, request) => request.now }

const VARIANTS: readonly Variant[] = [
  { name: 'deep search', env: (emu) => emu.env, request: PIPELINE_REQUEST },
  { name: 'zero keys (keyless + vertical)', env: zeroKeysOf, request: ZERO_KEY_REQUEST, unpaced: true },
]

/**
 * Scenario 1: one deep search (3 sub-queries × 4 providers × 10 results) in-process, with the emulator in
 * its own process, and the same with zero keys (DuckDuckGo and Wikipedia). Overhead = total − the slowest upstream
 * call as the emulator logged it (ms resolution); per call = overhead / upstream calls, to compare the two.
 */
export async function pipelineScenario(
  ctx: ScenarioContext,
  latencies: readonly number[] = [0, 200],
): Promise<VariantResult[]> {
  const out: VariantResult[] = []
  for (const latencyMs of latencies) {
    const emu = await startRemoteEmulator({ latencyMs })
    try {
      for (const variant of VARIANTS) out.push(await measureVariant(ctx, emu, variant, latencyMs))
    } finally {
      await emu.close()
    }
  }
  return out
}

async function measureVariant(
  ctx: ScenarioContext,
  emu: Emulator,
  variant: Variant,
  latencyMs: number,
): Promise<VariantResult> {
  const home = await ctx.tempHome()
  const layer = createSearchLayer({
    env: { ...variant.env(emu), HOME: home },
    cache: false,
    rateLimits: false,
    ...(variant.unpaced && { paceStore: GRANTING_PACE_STORE }),
  })
  const iterations = ctx.quick ? (latencyMs ? 5 : 20) : latencyMs ? 40 : 300
  const warmup = ctx.quick ? 3 : 20
  const totals: number[] = []
  const overheads: number[] = []
  const edges: number[] = []
  let calls = 0
  let shape = ''
  for (let i = 0; i < warmup + iterations; i++) {
    const mark = await emu.mark()
    const startedAt = Date.now()
    const t0 = performance.now()
    const res = await layer.search(variant.request)
    const total = performance.now() - t0
    const endedAt = Date.now()
    const spans = await emu.spans(mark)
    if (i < warmup) continue
    totals.push(total)
    overheads.push(total - slowestSpanMs(spans))
    edges.push(edgeOverheadMs(spans, startedAt, endedAt))
    calls += spans.length
    const ok = Object.entries(res.providers)
      .filter(([, p]) => p.status === 'ok')
      .map(([name]) => name)
    shape = `${res.queries.length} queries × ${ok.length} providers ok (${ok.join(', ')}) → ${res.count} merged results`
  }
  const total = summarize(totals)
  const overhead = summarize(overheads)
  const edge = summarize(edges)
  const perCall = Math.round((overhead.p50 / Math.max(1, calls / iterations)) * 100) / 100
  ctx.log(
    `pipeline ${variant.name} @${latencyMs} ms: total p50 ${total.p50} ms, overhead p50 ${overhead.p50} ms, ${perCall} ms per call, before the first call + after the last answer p50 ${edge.p50} ms (${shape})`,
  )
  return {
    scenario: '1 pipeline',
    variant: `${variant.name}, latency ${latencyMs} ms`,
    latency: total,
    throughput: { value: 1000 / total.mean, unit: 'searches/s' },
    upstreamCalls: calls / iterations,
    rssMb: rssMb(),
    extra: { overheadMs: overhead, overheadPerCallMs: perCall, edgeOverheadMs: edge, shape },
    note: `overhead p50 ${overhead.p50} / p95 ${overhead.p95} ms, ${perCall} ms per call; before first call + after last answer p50 ${edge.p50} ms; ${shape}`,
  }
}

/**
 * The pipeline's own time at the edges of a search: from its start to the first upstream call, plus from the last
 * answer to its end (plan; merge, score, respond). Unlike `total − slowest call` it leaves out waits between calls,
 * which a keyless search has by design (DuckDuckGo's polite pace of one request a second). Epoch ms, both clocks
 * on this machine; ms resolution.
 */
function edgeOverheadMs(
  spans: readonly { startedAt: number; endedAt?: number }[],
  startedAt: number,
  endedAt: number,
): number {
  if (spans.length === 0) return endedAt - startedAt
  const firstStart = Math.min(...spans.map((s) => s.startedAt))
  const lastEnd = Math.max(...spans.map((s) => s.endedAt ?? s.startedAt))
  return Math.max(0, firstStart - startedAt) + Math.max(0, endedAt - lastEnd)
}
