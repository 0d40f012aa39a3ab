import { performance } from 'node:perf_hooks'
import { createSearchLayer } from '@search-layer/engine'
import type { Fault } from '@search-layer/testkit'
import type { ScenarioContext } from '../_context.js'
import { startRemoteEmulator } from '../_remote-emulator.js'
import type { VariantResult } from '../_report.js'
import { summarize } from '../_stats.js'

const LATENCY_MS = 200

interface FaultCase {
  variant: string
  faults: { service: 'tavily' | 'brave'; fault: Fault }[]
}

const CASES: FaultCase[] = [
  { variant: 'no faults', faults: [] },
  { variant: 'tavily hangs', faults: [{ service: 'tavily', fault: { hang: true } }] },
  {
    variant: 'brave 429, Retry-After 5 s',
    faults: [{ service: 'brave', fault: { status: 429, code: 'RATE_LIMITED', retryAfterSec: 5 } }],
  },
  {
    variant: 'tavily hangs + brave 429',
    faults: [
      { service: 'tavily', fault: { hang: true } },
      { service: 'brave', fault: { status: 429, code: 'RATE_LIMITED', retryAfterSec: 5 } },
    ],
  },
]

/**
 * Scenario 3: fan-out under faults. A hanging provider costs the deadline, not deadline + the others; a
 * 429 whose Retry-After is past the deadline fails fast instead of waiting. A fresh engine per search so one
 * run's circuit breaker does not shape the next.
 */
export async function faultsScenario(ctx: ScenarioContext): Promise<VariantResult[]> {
  const emu = await startRemoteEmulator({ latencyMs: LATENCY_MS })
  const out: VariantResult[] = []
  try {
    const home = await ctx.tempHome()
    const iterations = ctx.quick ? 2 : 10
    // A shorter deadline in --quick keeps CI fast; the shape (deadline, not the sum) is the same.
    const DEADLINE_MS = ctx.quick ? 1_000 : 2_000
    for (const c of CASES) {
      const times: number[] = []
      let calls = 0
      const statuses = new Map<string, number>()
      for (let i = 0; i < iterations; i++) {
        await emu.reset()
        for (const { service, fault } of c.faults) await emu.fault(service, fault)
        const layer = createSearchLayer({ env: { ...emu.env, HOME: home }, cache: false, rateLimits: false })
        const mark = await emu.mark()
        const t0 = performance.now()
        const res = await layer.search({
          query: 'Bun vs Deno',
          intent: 'auto',
          mode: 'deep',
          num: 10,
          deadlineMs: DEADLINE_MS,
        })
        times.push(performance.now() - t0)
        calls += (await emu.spans(mark)).length
        const line = Object.entries(res.providers)
          .map(([name, p]) => `${name} ${p.status === 'error' ? (p.error?.kind ?? 'error') : p.status}`)
          .join(', ')
        statuses.set(line, (statuses.get(line) ?? 0) + 1)
      }
      await emu.fault('tavily', null)
      const summary = summarize(times)
      const outcome = [...statuses.keys()].join(' | ')
      out.push({
        scenario: '3 fan-out faults',
        variant: c.variant,
        latency: summary,
        upstreamCalls: calls / iterations,
        extra: { deadlineMs: DEADLINE_MS, latencyMs: LATENCY_MS, providers: Object.fromEntries(statuses) },
        note: `deadline ${DEADLINE_MS} ms; ${outcome}`,
      })
      ctx.log(`faults ${c.variant}: p50 ${summary.p50} ms; ${outcome}`)
    }
    out.push(...(await pacingVariants(ctx, emu, home)))
    return out
  } finally {
    await emu.close()
  }
}

// A Brave answer whose rate-limit headers say which plan the key is on; the body is the same either way.
const BRAVE_BODY = JSON.stringify({
  type: 'search',
  web: {
    type: 'search',
    results: Array.from({ length: 5 }, (_, i) => ({
      title: `Result ${i}`,
      url: `https://example.com/pacing/${i}`,
      description: 'A result.',
    })),
  },
})
const PLANS = [
  { variant: 'brave free plan headers (1/s), 3 queries', limit: '1, 2000', remaining: '0, 1990' },
  { variant: 'brave paid plan headers (20/s), 3 queries', limit: '20, 20000000', remaining: '19, 19999990' },
]

/**
 * Learned pacing: a 3-query Brave search with the default pace (1/s) on a fresh engine, then the same search once
 * the first answer's `X-RateLimit-*` headers have been read. A paid key should drop to one round trip; a free key
 * stays paced (never a 429 from our own burst).
 */
async function pacingVariants(
  ctx: ScenarioContext,
  emu: Awaited<ReturnType<typeof startRemoteEmulator>>,
  home: string,
): Promise<VariantResult[]> {
  const out: VariantResult[] = []
  const iterations = ctx.quick ? 2 : 6
  const request = { queries: ['Bun vs Deno', 'Bun advantages', 'Deno advantages'], sources: ['brave'], cache: false }
  for (const plan of PLANS) {
    const first: number[] = []
    const learned: number[] = []
    for (let i = 0; i < iterations; i++) {
      await emu.reset()
      const headers = {
        'x-ratelimit-limit': plan.limit,
        'x-ratelimit-remaining': plan.remaining,
        'x-ratelimit-reset': '1, 1419200',
      }
      await emu.fault('brave', { reply: { body: BRAVE_BODY, headers } })
      const layer = createSearchLayer({ env: { ...emu.env, HOME: home }, cache: false })
      let t0 = performance.now()
      await layer.search({ ...request, intent: 'none', deadlineMs: 10_000 })
      first.push(performance.now() - t0)
      t0 = performance.now()
      await layer.search({ ...request, intent: 'none', deadlineMs: 10_000 })
      learned.push(performance.now() - t0)
    }
    const before = summarize(first)
    const after = summarize(learned)
    out.push({
      scenario: '3 fan-out faults',
      variant: plan.variant,
      latency: after,
      upstreamCalls: 3,
      extra: { firstSearchP50Ms: before.p50, latencyMs: LATENCY_MS },
      // The learned search starts right after the first, so on 1/s its first call waits out that second.
      note: `after learning; the first search (default 1/s) p50 ${before.p50} ms`,
    })
    ctx.log(`pacing ${plan.variant}: first p50 ${before.p50} ms, learned p50 ${after.p50} ms`)
  }
  return out
}
