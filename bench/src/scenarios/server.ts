import autocannon from 'autocannon'
import type { ScenarioContext } from '../_context.js'
import { startRemoteEmulator } from '../_remote-emulator.js'
import { type RemoteServer, startRemoteServer } from '../_remote-server.js'
import type { VariantResult } from '../_report.js'

const MB = 2 ** 20

/** What one autocannon run measured. */
interface LoadResult {
  requests: number
  reqPerSec: number
  p50: number
  p99: number
  max: number
  errors: number
  non2xx: number
  timeouts: number
}

/** Runs autocannon against one path for a bounded time; `[<id>]` in the path becomes a fresh id per request. */
async function load(
  url: string,
  path: string,
  { connections, durationSec }: { connections: number; durationSec: number },
): Promise<LoadResult> {
  const result = await autocannon({
    url: `${url}${path}`,
    connections,
    duration: durationSec,
    idReplacement: path.includes('[<id>]'),
    timeout: 30,
  })
  return {
    requests: result.requests.total,
    reqPerSec: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    errors: result.errors,
    non2xx: result.non2xx,
    timeouts: result.timeouts,
  }
}

function row(
  variant: string,
  r: LoadResult,
  calls: number,
  peakRssMb: number,
  cpuMsPerRequest: number,
  note: string,
): VariantResult {
  return {
    scenario: '7 server',
    variant,
    // autocannon reports p50/p99 (not p95): p99 is kept under its own name in `extra`.
    latency: { n: r.requests, p50: r.p50, p95: Number.NaN, max: r.max, mean: Number.NaN },
    throughput: { value: r.reqPerSec, unit: 'req/s' },
    // Calls made for requests still in flight when the run stopped count too, so this is an upper bound.
    upstreamCalls: r.requests ? Math.round((calls / r.requests) * 100) / 100 : 0,
    rssMb: peakRssMb,
    extra: { ...r, p99Ms: r.p99, cpuMsPerRequest },
    note: `server CPU ${cpuMsPerRequest} ms/request; p99 ${r.p99} ms; errors ${r.errors}, non-2xx ${r.non2xx}, timeouts ${r.timeouts}; ${note}`,
  }
}

/** Node flags of the second pass: the heap capped the way an operator would in NODE_OPTIONS (see the server README). */
const CAPPED_HEAP_ARGS = ['--max-old-space-size=160'] as const

/**
 * Scenario 7: the HTTP server (own process) under 100 connections for a bounded time, emulator at 50 ms:
 * cache hits (one query) and cache misses (a unique query per request); once with Node's defaults, once with the
 * heap capped (V8 otherwise grows the heap far past the live data under this much garbage; see the note in the
 * server README).
 */
export async function serverScenario(ctx: ScenarioContext): Promise<VariantResult[]> {
  const emu = await startRemoteEmulator({ latencyMs: 50 })
  try {
    const out: VariantResult[] = []
    for (const [label, nodeArgs] of [
      ['', []],
      [`, ${CAPPED_HEAP_ARGS.join(' ')}`, CAPPED_HEAP_ARGS],
    ] as const) {
      if (ctx.quick && label) continue
      out.push(...(await serverPass(ctx, emu, label, nodeArgs)))
    }
    return out
  } finally {
    await emu.close()
  }
}

async function serverPass(
  ctx: ScenarioContext,
  emu: Awaited<ReturnType<typeof startRemoteEmulator>>,
  label: string,
  nodeArgs: readonly string[],
): Promise<VariantResult[]> {
  let server: RemoteServer | undefined
  try {
    const home = await ctx.tempHome()
    server = await startRemoteServer({ ...emu.env, HOME: home }, { nodeArgs })
    const durationSec = ctx.quick ? 2 : 15
    const connections = 100
    const out: VariantResult[] = []

    // Warm the cache and the JIT with the one query the hit run repeats.
    const warm = await fetch(`${server.url}/v1/search?q=rust+async+runtime`)
    if (!warm.ok) throw new Error(`server answered ${warm.status} to the warm-up search`)
    await warm.arrayBuffer()
    if (!ctx.quick) await load(server.url, '/v1/search?q=rust+async+runtime', { connections: 10, durationSec: 2 })

    for (const [variant, path, target] of [
      ['/v1/search cache hit', '/v1/search?q=rust+async+runtime', '≥ 3,000 req/s'],
      // An exploratory query: deep mode, 3 sub-queries × (4 engines + Wikipedia, its vertical): 15 upstream calls per miss.
      ['/v1/search cache miss', '/v1/search?q=rust+async+runtime+[<id>]', '≥ 1,000 req/s'],
      // The search the CPU target is set for: a comparison, deep mode, 3 sub-queries × 4 engines = 12 calls per miss.
      ['/v1/search cache miss, deep 12 calls', '/v1/search?q=bun+vs+deno+[<id>]', '≥ 1,000 req/s, server CPU ≤ 3.5 ms'],
    ] as const) {
      const { cpuMs: cpuBefore } = await server.resetPeak()
      const before = await emu.count()
      const r = await load(server.url, path, { connections, durationSec })
      const calls = (await emu.count()) - before
      const { peakRss, cpuMs: cpuAfter } = await server.stats()
      // Server process CPU per request answered (requests still in flight at the end add a little: an upper bound).
      const cpuMsPerRequest = r.requests ? Math.round(((cpuAfter - cpuBefore) / r.requests) * 100) / 100 : 0
      const peak = Math.round(peakRss / MB)
      // What is still in use after a full collection: live data (cache, JIT code), as opposed to uncollected garbage.
      const live = Math.round((await server.collectGarbage()).heapUsed / MB)
      out.push(
        row(
          `${variant}${label}`,
          r,
          calls,
          peak,
          cpuMsPerRequest,
          `${connections} connections, ${durationSec} s; live heap after GC ${live} MB; target ${target}, RSS < 200 MB`,
        ),
      )
      ctx.log(
        `server ${variant}${label}: ${r.reqPerSec} req/s, server CPU ${cpuMsPerRequest} ms/request, p50 ${r.p50} ms, p99 ${r.p99} ms, errors ${r.errors + r.non2xx}, peak RSS ${peak} MB`,
      )
      // The emulator keeps every request in its log; drop it between runs so its memory does not skew the next.
      await emu.reset()
    }
    return out
  } finally {
    await server?.close()
  }
}
