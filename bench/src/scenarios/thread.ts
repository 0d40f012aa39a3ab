import { performance } from 'node:perf_hooks'
import { fetchThread } from '@search-layer/thread-fetch'
import type { ScenarioContext } from '../_context.js'
import { startRemoteEmulator } from '../_remote-emulator.js'
import type { VariantResult } from '../_report.js'
import { sequentialRoundTrips, summarize } from '../_stats.js'

/** Scenario 6: a 1,000-comment GitHub issue at 100 ms per request — sequential round trips and total time. */
export async function threadScenario(ctx: ScenarioContext): Promise<VariantResult[]> {
  const emu = await startRemoteEmulator({ latencyMs: 0 })
  try {
    await emu.addIssue({
      owner: 'bench',
      repo: 'big-thread',
      number: 1000,
      title: 'A long-running discussion',
      comments: 1000,
      timeline: 200,
    })
    await emu.latency('github', 100)
    const home = await ctx.tempHome()
    const env = { ...emu.env, HOME: home }
    const iterations = ctx.quick ? 2 : 10
    const times: number[] = []
    const trips: number[] = []
    let calls = 0
    let comments = 0
    let refs = 0
    for (let i = 0; i < iterations + 1; i++) {
      const mark = await emu.mark()
      const t0 = performance.now()
      const thread = await fetchThread('https://github.com/bench/big-thread/issues/1000', { env })
      const ms = performance.now() - t0
      const spans = await emu.spans(mark)
      if (i === 0) continue // connection set-up and JIT
      times.push(ms)
      trips.push(sequentialRoundTrips(spans))
      calls += spans.length
      comments = thread.comments.length
      refs = thread.refs.length
    }
    const summary = summarize(times)
    const roundTrips = summarize(trips)
    ctx.log(`thread: p50 ${summary.p50} ms, ${roundTrips.p50} sequential round trips, ${calls / iterations} requests`)
    return [
      {
        scenario: '6 thread fetch',
        variant: '1,000-comment issue, latency 100 ms',
        latency: summary,
        upstreamCalls: calls / iterations,
        extra: { sequentialRoundTrips: roundTrips, comments, refs, latencyMs: 100 },
        note: `${roundTrips.p50} sequential round trips; ${comments} comments, ${refs} refs`,
      },
    ]
  } finally {
    await emu.close()
  }
}
