import { setTimeout as sleep } from 'node:timers/promises'
import { performance } from 'node:perf_hooks'
import { type ProviderDefinition, defineProvider } from '@search-layer/core'
import { createSearchLayer } from '@search-layer/engine'
import { corpusHtml, loadQuestions, loadTruth } from '../_corpus-pages.js'
import type { ScenarioContext } from '../_context.js'
import { startRemoteEmulator } from '../_remote-emulator.js'
import type { VariantResult } from '../_report.js'
import { type Summary, summarize } from '../_stats.js'

const LATENCY_MS = 200
const PAGES = 5

interface Corpus {
  query: string
  /** Paths on the emulator's `pages` service, in result order. */
  paths: string[]
  medianHtmlChars: number
}

/**
 * Five typical pages: the question set's pages closest to its median HTML size (real articles, not the corpora's
 * largest or smallest), served by the emulator; the query is the question of the first.
 */
async function servePages(emu: Awaited<ReturnType<typeof startRemoteEmulator>>): Promise<Corpus> {
  const questions = loadQuestions()
  const truth = loadTruth()
  const pool = [...new Set(questions.map((q) => q.page))].map((id) => ({ id, html: corpusHtml(id, truth).html }))
  const sizes = pool.map((p) => p.html.length).sort((a, b) => a - b)
  const median = sizes[Math.floor(sizes.length / 2)]!
  const typical = [...pool].sort((a, b) => Math.abs(a.html.length - median) - Math.abs(b.html.length - median))
  const chosen = typical.slice(0, PAGES)
  const paths = chosen.map((_, i) => `/read-${i + 1}`)
  await Promise.all(chosen.map((p, i) => emu.page(paths[i]!, p.html)))
  const query = questions.find((q) => q.page === chosen[0]!.id)!.query
  const chars = chosen.map((p) => p.html.length).sort((a, b) => a - b)
  return { query, paths, medianHtmlChars: chars[Math.floor(chars.length / 2)]! }
}

/**
 * A keyless engine answering after one round trip of the same latency as the pages, with the served pages as its
 * results: the search without reading costs one round trip, and reading should add about one more.
 */
function engineOf(pagesUrl: string, paths: readonly string[]): ProviderDefinition {
  const definition: ProviderDefinition = {
    id: 'corpus',
    label: 'corpus (bench engine)',
    docsUrl: 'https://corpus.example/docs',
    env: { apiKey: [], baseUrl: 'CORPUS_URL' },
    defaultBaseUrl: 'https://corpus.example',
    keyless: true,
    capabilities: ['web'],
    priority: 60,
    rateLimit: { perSecond: 1000, burst: 1000, maxConcurrent: 8 },
    cost: {},
    create: () =>
      defineProvider({
        definition,
        run: async () => {
          await sleep(LATENCY_MS)
          const results = paths.map((path, i) => ({
            title: `Result ${i + 1}`,
            url: `${pagesUrl}${path}`,
            snippet: 'a page of the corpus',
            publishedAt: null,
            provider: 'corpus',
            rank: i + 1,
          }))
          return { results }
        },
      }),
  }
  return definition
}

interface Measured {
  wall: Summary
  cpu: Summary
  ok: number
  passages: number
}

async function measure(ctx: ScenarioContext, search: (i: number) => Promise<{ ok: number; passages: number }>) {
  const iterations = ctx.quick ? 3 : 15
  const warmup = ctx.quick ? 1 : 3
  const wall: number[] = []
  const cpu: number[] = []
  let last = { ok: 0, passages: 0 }
  for (let i = 0; i < warmup + iterations; i++) {
    const cpu0 = process.cpuUsage()
    const t0 = performance.now()
    last = await search(i)
    const elapsed = performance.now() - t0
    const used = process.cpuUsage(cpu0)
    if (i < warmup) continue
    wall.push(elapsed)
    // The whole process: the main thread and page-fetch's extraction workers.
    cpu.push((used.user + used.system) / 1000)
  }
  return { wall: summarize(wall), cpu: summarize(cpu), ...last } satisfies Measured
}

/**
 * Scenario 13: `read: 5` against the same search without reading, side by side in one run, with the engine and the
 * five pages (typical real articles) at 200 ms latency. +wall should be about one page round trip (the pages are
 * fetched in parallel), +CPU ≤ 50 ms for the five pages (fetch, extraction in the workers, passages, tokenizer).
 * The emulator is one host, so page-fetch's per-host cap (2) makes five pages three round trips; `read: 2` shows
 * the one-round-trip case. Not in `--quick`: every search extracts five ~140 KB pages (tens of seconds on a loaded host).
 */
export async function readScenario(ctx: ScenarioContext): Promise<VariantResult[]> {
  const emu = await startRemoteEmulator({ latencyMs: LATENCY_MS })
  try {
    const corpus = await servePages(emu)
    const layer = createSearchLayer({
      env: { HOME: await ctx.tempHome() },
      providers: [engineOf(`${emu.url}/pages`, corpus.paths)],
      cache: false,
      rateLimits: false,
      pageFetch: { allowHosts: ['127.0.0.1'] },
    })
    const request = { query: corpus.query, intent: 'none' as const, sources: ['corpus'], deadlineMs: 10_000 }
    const run = (read: number) => async () => {
      const res = await layer.search({ ...request, ...(read > 0 && { read }) })
      return { ok: (res.reads ?? []).filter((r) => r.status === 'ok').length, passages: res.passages?.length ?? 0 }
    }
    // Alternating would mix the two in the tokenizer's and the workers' warm-up; each runs its own warm-up instead.
    const plain = await measure(ctx, run(0))
    const reading = await measure(ctx, run(PAGES))
    const two = await measure(ctx, run(2))
    return report(ctx, corpus, plain, reading, two)
  } finally {
    await emu.close()
  }
}

function report(
  ctx: ScenarioContext,
  corpus: Corpus,
  plain: Measured,
  reading: Measured,
  two: Measured,
): VariantResult[] {
  const round = (x: number) => Math.round(x * 10) / 10
  const addedWall = round(reading.wall.p50 - plain.wall.p50)
  const addedCpu = round(reading.cpu.p50 - plain.cpu.p50)
  ctx.log(`read: +wall p50 ${addedWall} ms (target ≤ ${LATENCY_MS}), +CPU p50 ${addedCpu} ms (target ≤ 50)`)
  const shape = `${PAGES} typical corpus pages (median ${corpus.medianHtmlChars.toLocaleString('en-US')} chars of HTML)`
  return [
    {
      scenario: '13 read',
      variant: `baseline: the same search without reading, latency ${LATENCY_MS} ms`,
      latency: plain.wall,
      extra: { cpuMs: plain.cpu },
      note: `CPU p50 ${plain.cpu.p50} ms`,
    },
    {
      scenario: '13 read',
      variant: `read: ${PAGES}, ${shape}, latency ${LATENCY_MS} ms`,
      latency: reading.wall,
      extra: { cpuMs: reading.cpu, addedWallP50Ms: addedWall, addedCpuP50Ms: addedCpu, pagesOk: reading.ok },
      note: `+wall p50 ${addedWall} ms (target ≤ one page round trip, ${LATENCY_MS} ms + transfer), +CPU p50 ${addedCpu} ms (target ≤ 50); ${reading.ok}/${PAGES} read, ${reading.passages} passages; the pages share one host, read 2 at a time (3 round trips)`,
    },
    {
      scenario: '13 read',
      variant: `read: 2 (one round trip within the per-host cap), latency ${LATENCY_MS} ms`,
      latency: two.wall,
      extra: { cpuMs: two.cpu, addedWallP50Ms: round(two.wall.p50 - plain.wall.p50) },
      note: `+wall p50 ${round(two.wall.p50 - plain.wall.p50)} ms, +CPU p50 ${round(two.cpu.p50 - plain.cpu.p50)} ms for 2 pages`,
    },
  ]
}
