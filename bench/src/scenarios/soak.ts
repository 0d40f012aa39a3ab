import autocannon from 'autocannon'
import type { ScenarioContext } from '../_context.js'
import { startRemoteEmulator } from '../_remote-emulator.js'
import { type RemoteServer, startRemoteServer } from '../_remote-server.js'
import type { VariantResult } from '../_report.js'
import { QUERY_MIX } from './intent.js'

const MB = 2 ** 20
const PROVIDERS = ['brave', 'exa', 'tavily', 'grok'] as const
const FAULTS = [{ status: 500 }, { status: 429, retryAfterSec: 1 }, { reset: true }, { status: 503 }] as const

/**
 * Scenario 8 (opt-in): steady load on the server for `soakMinutes` with about 10% of provider calls
 * failing. Every second the emulator's log is read and cleared, and each provider is armed with a
 * `times`-limited fault sized to 10% of its last second's calls.
 */
export async function soakScenario(ctx: ScenarioContext): Promise<VariantResult[]> {
  const emu = await startRemoteEmulator({ latencyMs: 50 })
  let server: RemoteServer | undefined
  let ticker: NodeJS.Timeout | undefined
  try {
    const home = await ctx.tempHome()
    server = await startRemoteServer({ ...emu.env, HOME: home })
    const warm = await fetch(`${server.url}/v1/search?q=warm+up`)
    await warm.arrayBuffer()
    const durationSec = Math.round(ctx.soakMinutes * 60)
    // Live data after a full collection, at start and end: growth there would be a leak; RSS alone cannot tell
    // a leak from garbage V8 has not collected yet.
    const liveStart = (await server.collectGarbage()).heapUsed
    const rssStart = (await server.resetPeak()).rss
    const samples: { atSec: number; rssMb: number }[] = [{ atSec: 0, rssMb: Math.round(rssStart / MB) }]
    let upstream = 0
    let injected = 0
    let tick = 0
    const started = Date.now()
    const arm = async () => {
      tick++
      const counts = await Promise.all(PROVIDERS.map((p) => emu.count(p)))
      await emu.reset()
      for (const n of counts) upstream += n
      await Promise.all(
        PROVIDERS.map((p, i) => {
          const times = Math.round(counts[i]! * 0.1)
          if (times === 0) return undefined
          injected += times
          return emu.fault(p, { ...FAULTS[(tick + i) % FAULTS.length]!, times })
        }),
      )
      if (tick % 10 === 0) {
        const { rss } = await server!.stats()
        samples.push({ atSec: Math.round((Date.now() - started) / 1000), rssMb: Math.round(rss / MB) })
        ctx.log(`soak ${samples.at(-1)!.atSec}s: RSS ${samples.at(-1)!.rssMb} MB`)
      }
    }
    let arming = Promise.resolve()
    ticker = setInterval(() => {
      arming = arming.then(arm).catch(() => undefined)
    }, 1000)
    const result = await autocannon({
      url: server.url,
      connections: 20,
      overallRate: 100,
      duration: durationSec,
      timeout: 30,
      idReplacement: true,
      requests: QUERY_MIX.slice(0, 12).map((q) => ({
        method: 'GET',
        path: `/v1/search?q=${encodeURIComponent(q)}+[<id>]`,
      })),
    })
    clearInterval(ticker)
    await arming
    const { rss: rssEnd, peakRss } = await server.stats()
    const liveEnd = (await server.collectGarbage()).heapUsed
    samples.push({ atSec: durationSec, rssMb: Math.round(rssEnd / MB) })
    const note = `RSS start ${Math.round(rssStart / MB)} → end ${Math.round(rssEnd / MB)} MB (peak ${Math.round(peakRss / MB)}); live heap after GC ${Math.round(liveStart / MB)} → ${Math.round(liveEnd / MB)} MB; ${injected} of ${upstream} upstream calls faulted; errors ${result.errors}, non-2xx ${result.non2xx}`
    ctx.log(`soak: ${note}`)
    return [
      {
        scenario: '8 soak',
        variant: `${ctx.soakMinutes} min, 100 req/s, ~10% provider faults`,
        latency: {
          n: result.requests.total,
          p50: result.latency.p50,
          p95: Number.NaN,
          max: result.latency.max,
          mean: result.latency.mean,
        },
        throughput: { value: Math.round(result.requests.average), unit: 'req/s' },
        upstreamCalls: result.requests.total ? Math.round((upstream / result.requests.total) * 100) / 100 : 0,
        rssMb: Math.round(peakRss / MB),
        extra: {
          rssStartMb: Math.round(rssStart / MB),
          rssEndMb: Math.round(rssEnd / MB),
          liveHeapStartMb: Math.round(liveStart / MB),
          liveHeapEndMb: Math.round(liveEnd / MB),
          samples,
          injectedFaults: injected,
          upstreamCalls: upstream,
          p99Ms: result.latency.p99,
          errors: result.errors,
          non2xx: result.non2xx,
        },
        note,
      },
    ]
  } finally {
    if (ticker) clearInterval(ticker)
    await server?.close()
    await emu.close()
  }
}
