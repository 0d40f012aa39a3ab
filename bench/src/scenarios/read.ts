import { setTimeout as sleep } from 'node:timers/promises'
import { performance } from 'node:perf_hooks'
import { type ProviderDefinition, defineProvider } from '@search-layer/core'
import { createSearchLayer } from '@search-layer/engine'
import { type ExtractPool, createExtractPool, pageFromBody } from '@search-layer/page-fetch'
import { corpusHtml, loadQuestions, loadTruth } from '../_corpus-pages.js'
import type { ScenarioContext } from '../_context.js'
import { startRemoteEmulator } from '../_remote-emulator.js'
import type { VariantResult } from '../_report.js'
import { type Summary, summarize } from '../_stats.js'
import { type ThreadCpu, threadCpu, threadCpuSince } from '../_thread-cpu.js'

const LATENCY_MS = 200
const PAGES = 5

interface Corpus {
  query: string
  /** Paths on the emulator's `pages` service, in result order. */
  paths: string[]
  medianHtmlChars: number
  /** The pages' HTML and URLs, for timing their extraction alone. */
  pages: { html: string; url: string }[]
}

/** Host names of the multi-host row, one a page; all resolve to the emulator's loopback address. */
const HOSTS = Array.from({ length: PAGES }, (_, i) => `read-${i + 1}.bench.test`)

/**
 * Five typical pages: the question set's pages closest to its median HTML size (real articles, not the corpora's
 * largest or smallest), served by the emulator; the query is the question of the first.
 */
async function servePages(emu: Awaited<ReturnType<typeof startRemoteEmulator>>): Promise<Corpus> {
  const questions = loadQuestions()
  const truth = loadTruth()
  const pool = [...new Set(questions.map((q) => q.page))].map((id) => ({ id, ...corpusHtml(id, truth) }))
  const sizes = pool.map((p) => p.html.length).sort((a, b) => a - b)
  const median = sizes[Math.floor(sizes.length / 2)]!
  const typical = [...pool].sort((a, b) => Math.abs(a.html.length - median) - Math.abs(b.html.length - median))
  const chosen = typical.slice(0, PAGES)
  const paths = chosen.map((_, i) => `/read-${i + 1}`)
  await Promise.all(chosen.map((p, i) => emu.page(paths[i]!, p.html)))
  const query = questions.find((q) => q.page === chosen[0]!.id)!.query
  const chars = chosen.map((p) => p.html.length).sort((a, b) => a - b)
  const pages = chosen.map(({ html, url }) => ({ html, url }))
  return { query, paths, medianHtmlChars: chars[Math.floor(chars.length / 2)]!, pages }
}

/**
 * A keyless engine answering after one round trip of the same latency as the pages, with the served pages as its
 * results: the search without reading costs one round trip, and reading should add about one more.
 */
function engineOf(urls: readonly string[]): ProviderDefinition {
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
          const results = urls.map((url, i) => ({
            title: `Result ${i + 1}`,
            url,
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
  /** Mean CPU per search by thread (undefined without /proc). */
  threads?: ThreadCpu
  ok: number
  passages: number
}

async function measure(ctx: ScenarioContext, search: (i: number) => Promise<{ ok: number; passages: number }>) {
  const iterations = ctx.quick ? 3 : 15
  const warmup = ctx.quick ? 1 : 3
  const wall: number[] = []
  const cpu: number[] = []
  let last = { ok: 0, passages: 0 }
  let threads0: ThreadCpu | undefined
  for (let i = 0; i < warmup + iterations; i++) {
    if (i === warmup) threads0 = threadCpu()
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
  // Summed over the iterations (a tick is 10 ms), then per search.
  const spent = threadCpuSince(threads0, threadCpu())
  const threads = spent && { mainMs: spent.mainMs / iterations, otherMs: spent.otherMs / iterations }
  return { wall: summarize(wall), cpu: summarize(cpu), ...(threads && { threads }), ...last } satisfies Measured
}

/**
 * Scenario 13: `read: 5` against the same search without reading, side by side in one run, with the engine and the
 * five pages (typical real articles) at 200 ms latency. +wall should be about one page round trip (the pages are
 * fetched in parallel), +CPU ≤ 50 ms for the five pages (fetch, extraction in the workers, passages, tokenizer).
 * Rows: the pages on one host (page-fetch's per-host cap of 2 makes five pages three round trips), on five hosts
 * (one round trip: what the target is about), `read: 2`, and the extraction alone (per page, in this thread, warm;
 * and a fresh worker's first page). Not in `--quick`: every search extracts five ~140 KB pages.
 */
export async function readScenario(ctx: ScenarioContext): Promise<VariantResult[]> {
  const emu = await startRemoteEmulator({ latencyMs: LATENCY_MS })
  try {
    const corpus = await servePages(emu)
    const port = new URL(emu.url).port
    const layerOf = async (urls: string[], hosts: string[], extractPool?: ExtractPool) =>
      createSearchLayer({
        env: { HOME: await ctx.tempHome() },
        providers: [engineOf(urls)],
        cache: false,
        rateLimits: false,
        pageFetch: {
          allowHosts: hosts,
          lookup: async () => [{ address: '127.0.0.1', family: 4 }],
          ...(extractPool && { extractPool }),
        },
      })
    const oneHost = await layerOf(
      corpus.paths.map((path) => `${emu.url}/pages${path}`),
      ['127.0.0.1'],
    )
    const spreadUrls = corpus.paths.map((path, i) => `http://${HOSTS[i]}:${port}/pages${path}`)
    const fiveHosts = await layerOf(spreadUrls, HOSTS)
    const request = { query: corpus.query, intent: 'none' as const, sources: ['corpus'], deadlineMs: 10_000 }
    const run = (layer: typeof oneHost, read: number) => async () => {
      const res = await layer.search({ ...request, ...(read > 0 && { read }) })
      return { ok: (res.reads ?? []).filter((r) => r.status === 'ok').length, passages: res.passages?.length ?? 0 }
    }
    // Alternating would mix the two in the tokenizer's and the workers' warm-up; each runs its own warm-up instead.
    const plain = await measure(ctx, run(oneHost, 0))
    const reading = await measure(ctx, run(oneHost, PAGES))
    const spread = await measure(ctx, run(fiveHosts, PAGES))
    const two = await measure(ctx, run(oneHost, 2))
    const extraction = await extractionAlone(ctx, corpus)
    const cold = await coldWorkers(ctx, async (pool) => {
      const layer = await layerOf(spreadUrls, HOSTS, pool)
      return run(layer, PAGES)
    })
    return [...report(ctx, corpus, { plain, reading, spread, two }, extraction), ...cold]
  } finally {
    await emu.close()
  }
}

interface Extraction {
  /** CPU of one page read in this thread, warm (ms). */
  perPageCpu: Summary
  /** A fresh worker's first page: wall and process CPU (module loading, cold code). */
  coldWall: Summary
  coldCpu: Summary
}

/** The extraction alone: each page in this thread (warm, so the figure is the page's own), and a cold worker. */
async function extractionAlone(ctx: ScenarioContext, corpus: Corpus): Promise<Extraction> {
  const rounds = ctx.quick ? 2 : 8
  const perPage: number[] = []
  for (let r = 0; r < rounds + 2; r++)
    for (const page of corpus.pages) {
      const cpu0 = process.cpuUsage()
      pageFromBody(page.html, 'text/html', { url: page.url })
      const used = process.cpuUsage(cpu0)
      if (r >= 2) perPage.push((used.user + used.system) / 1000)
    }
  const coldWall: number[] = []
  const coldCpu: number[] = []
  const first = corpus.pages[0]!
  for (let r = 0; r < (ctx.quick ? 2 : 5); r++) {
    const pool = createExtractPool({ size: 1 })
    const cpu0 = process.cpuUsage()
    const t0 = performance.now()
    await pool.pageFromBody(first.html, 'text/html', { url: first.url })
    coldWall.push(performance.now() - t0)
    const used = process.cpuUsage(cpu0)
    coldCpu.push((used.user + used.system) / 1000)
    await pool.close()
  }
  return { perPageCpu: summarize(perPage), coldWall: summarize(coldWall), coldCpu: summarize(coldCpu) }
}

/**
 * A process's first reading search, as a CLI run has it: a fresh pool whose workers start as the search begins
 * (`warm()`, what the engine does) against one whose `warm()` does nothing, so its workers start with the first
 * page. Alternated, five of each (two in `--quick`); the evidence module and tokenizer are loaded already in both.
 */
async function coldWorkers(
  ctx: ScenarioContext,
  search: (pool: ExtractPool) => Promise<() => Promise<{ ok: number }>>,
): Promise<VariantResult[]> {
  const wall = { warm: [] as number[], cold: [] as number[] }
  for (let i = 0; i < (ctx.quick ? 2 : 5); i++)
    for (const kind of ['warm', 'cold'] as const) {
      const pool = createExtractPool()
      const given: ExtractPool = kind === 'warm' ? pool : { ...bound(pool), warm: () => undefined }
      const t0 = performance.now()
      await (await search(given))()
      wall[kind].push(performance.now() - t0)
      await pool.close()
    }
  const warm = summarize(wall.warm)
  const cold = summarize(wall.cold)
  ctx.log(`read: first search of a fresh pool, 5 hosts: warmed at start p50 ${warm.p50} ms, not warmed ${cold.p50} ms`)
  const row = (variant: string, s: Summary, note: string): VariantResult => ({
    scenario: '13 read',
    variant,
    latency: s,
    note,
  })
  return [
    row(
      `read: ${PAGES}, 5 hosts, a fresh pool's first search, workers started as the search begins`,
      warm,
      `wall p50 ${warm.p50} ms (the engine's default: ExtractPool.warm() at the start)`,
    ),
    row(
      `read: ${PAGES}, 5 hosts, a fresh pool's first search, workers started by the first page`,
      cold,
      `wall p50 ${cold.p50} ms; warming saves ${round(cold.p50 - warm.p50)} ms p50`,
    ),
  ]
}

/** The pool's methods bound to it, to build a variant of it. */
function bound(pool: ExtractPool): ExtractPool {
  return {
    pageFromBody: pool.pageFromBody.bind(pool),
    pageFromPdf: pool.pageFromPdf.bind(pool),
    warm: pool.warm.bind(pool),
    close: pool.close.bind(pool),
  }
}

interface Rows {
  plain: Measured
  reading: Measured
  spread: Measured
  two: Measured
}

const round = (x: number) => Math.round(x * 10) / 10

/** "+wall …, +CPU … (main thread …, other threads …)" of `m` against the no-read baseline. */
function added(m: Measured, plain: Measured): { wallMs: number; cpuMs: number; text: string } {
  const wallMs = round(m.wall.p50 - plain.wall.p50)
  const cpuMs = round(m.cpu.p50 - plain.cpu.p50)
  const split =
    m.threads && plain.threads
      ? ` (main thread +${round(m.threads.mainMs - plain.threads.mainMs)} ms, workers and other threads +${round(m.threads.otherMs - plain.threads.otherMs)} ms, means)`
      : ''
  return { wallMs, cpuMs, text: `+wall p50 ${wallMs} ms, +CPU p50 ${cpuMs} ms${split}` }
}

function report(ctx: ScenarioContext, corpus: Corpus, rows: Rows, extraction: Extraction): VariantResult[] {
  const { plain, reading, spread, two } = rows
  const one = added(reading, plain)
  const five = added(spread, plain)
  ctx.log(`read: one host ${one.text}; five hosts ${five.text} (targets ≤ ${LATENCY_MS} ms wall, ≤ 50 ms CPU)`)
  ctx.log(
    `read: extraction per page p50 ${extraction.perPageCpu.p50} ms CPU; a fresh worker's first page ${extraction.coldWall.p50} ms wall, ${extraction.coldCpu.p50} ms CPU`,
  )
  const shape = `${PAGES} typical corpus pages (median ${corpus.medianHtmlChars.toLocaleString('en-US')} chars of HTML)`
  const row = (variant: string, m: Measured, a: ReturnType<typeof added>, note: string): VariantResult => ({
    scenario: '13 read',
    variant,
    latency: m.wall,
    extra: { cpuMs: m.cpu, threadCpuMs: m.threads, addedWallP50Ms: a.wallMs, addedCpuP50Ms: a.cpuMs, pagesOk: m.ok },
    note: `${a.text}; ${note}`,
  })
  return [
    {
      scenario: '13 read',
      variant: `baseline: the same search without reading, latency ${LATENCY_MS} ms`,
      latency: plain.wall,
      extra: { cpuMs: plain.cpu, threadCpuMs: plain.threads },
      note: `CPU p50 ${plain.cpu.p50} ms`,
    },
    row(
      `read: ${PAGES}, ${shape}, one host, latency ${LATENCY_MS} ms`,
      reading,
      one,
      `${reading.ok}/${PAGES} read, ${reading.passages} passages; one host, read 2 at a time (3 round trips)`,
    ),
    row(
      `read: ${PAGES}, the same pages on ${PAGES} hosts, latency ${LATENCY_MS} ms`,
      spread,
      five,
      `${spread.ok}/${PAGES} read, ${spread.passages} passages; targets ≤ one page round trip (${LATENCY_MS} ms + transfer), ≤ 50 ms CPU`,
    ),
    row(`read: 2, one host (one round trip), latency ${LATENCY_MS} ms`, two, added(two, plain), 'for 2 pages'),
    {
      scenario: '13 read',
      variant: 'extraction alone: one typical page in this thread, warm (pageFromBody)',
      latency: extraction.perPageCpu,
      extra: { cpuMsPerPage: extraction.perPageCpu },
      note: `CPU per page p50 ${extraction.perPageCpu.p50} ms (the latency columns are CPU ms here)`,
    },
    {
      scenario: '13 read',
      variant: "extraction alone: a fresh worker's first page (createExtractPool, size 1)",
      latency: extraction.coldWall,
      extra: { cpuMs: extraction.coldCpu },
      note: `wall p50 ${extraction.coldWall.p50} ms, process CPU p50 ${extraction.coldCpu.p50} ms: starting the worker and its cold code`,
    },
  ]
}
