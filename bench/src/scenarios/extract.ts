import { readFile } from 'node:fs/promises'
import { monitorEventLoopDelay, performance } from 'node:perf_hooks'
import { type ReadablePage, createExtractPool, pageFromBody } from '@search-layer/page-fetch'
import type { ScenarioContext } from '../_context.js'
import type { VariantResult } from '../_report.js'
import { summarize } from '../_stats.js'

const URL_OF_PAGE = 'https://bench.example/page'
const WIKIPEDIA = new URL(
  '../../packages/page-fetch/test/fixtures/pages/wikipedia-new-zealand-climate.html',
  import.meta.url,
)

interface BenchPage {
  name: string
  html: string
  /** Also read on the main thread, for the contrast (off for pages that would hold it for tens of seconds). */
  inline: boolean
}

/** One job's figures: wall time, the main thread's longest stall meanwhile, and whether the page degraded. */
interface JobFigures {
  ms: number
  blockedMs: number
  degraded?: string
}

const nestedDivs = (depth: number, inner: string) => `${'<div>'.repeat(depth)}${inner}${'</div>'.repeat(depth)}`

async function pages(): Promise<BenchPage[]> {
  return [
    { name: 'Wikipedia article (10 KB)', html: await readFile(WIKIPEDIA, 'utf8'), inline: true },
    {
      name: '1,200 nested <div>s (13 KB)',
      html: `<html><body>${nestedDivs(1200, '<p>Deep.</p>')}</body></html>`,
      inline: true,
    },
    {
      name: '100,000 links (3.9 MB)',
      html: `<html><body>${Array.from({ length: 100_000 }, (_, i) => `<a href="/p/${i}">link number ${i}</a> `).join('')}</body></html>`,
      inline: true,
    },
    {
      // Under the depth, element and link bounds (Readability needs a minute); the total-depth bound stops it.
      name: '150 × 250 nested <div>s (0.4 MB)',
      html: `<html><body>${Array.from({ length: 150 }, (_, i) => nestedDivs(250, `<p>Paragraph ${i}.</p>`)).join('')}</body></html>`,
      inline: true,
    },
  ]
}

/**
 * A 4.6 MB page that outruns a 200 ms time limit (its limits lifted), read as plain text instead: the main
 * thread's longest stall while that happens. The plain-text read runs in a worker (or, past its own limit, over
 * the page's first 128 K characters on the main thread); it used to run over the whole page on the main thread.
 */
async function timedOutPageRow(ctx: ScenarioContext): Promise<VariantResult> {
  const html = `<html><body>${nestedDivs(1200, '<p>Deep.</p>')}${'<p>Some text, <a href="/x">a link</a>.</p>'.repeat(120_000)}</body></html>`
  const pool = createExtractPool({ size: 1 })
  const unlimited = Number.POSITIVE_INFINITY
  const limits = { maxDepth: unlimited, maxElements: unlimited, maxLinks: unlimited, maxTotalDepth: unlimited }
  try {
    const runs: JobFigures[] = []
    for (let i = 0; i < (ctx.quick ? 1 : 3); i++)
      runs.push(await measure(() => pool.pageFromBody(html, 'text/html', { url: URL_OF_PAGE, limits, timeoutMs: 200 })))
    const page: BenchPage = { name: '4.6 MB page past a 200 ms limit, plain-text fallback', html, inline: false }
    ctx.log(`extract: ${page.name}: main thread blocked ≤ ${Math.max(...runs.map((r) => r.blockedMs)).toFixed(1)} ms`)
    return row(page, 'worker, 200 ms limit', runs, 200)
  } finally {
    await pool.close()
  }
}

/**
 * Times `read` and records the event loop's longest delay meanwhile (`monitorEventLoopDelay`, 1 ms resolution):
 * how long the main thread could not answer anything else, e.g. a server's health check.
 */
async function measure(read: () => Promise<ReadablePage> | ReadablePage): Promise<JobFigures> {
  const delay = monitorEventLoopDelay({ resolution: 1 })
  delay.enable()
  await new Promise((resolve) => setTimeout(resolve, 5)) // the monitor's timer is running before the job starts
  const t0 = performance.now()
  const page = await read()
  const ms = performance.now() - t0
  await new Promise((resolve) => setTimeout(resolve, 5)) // a stall at the very end is recorded too
  delay.disable()
  return { ms, blockedMs: delay.max / 1e6, ...(page.degraded && { degraded: page.degraded }) }
}

function row(page: BenchPage, where: string, runs: JobFigures[], timeLimitMs?: number): VariantResult {
  const latency = summarize(runs.map((r) => r.ms))
  const blocked = summarize(runs.map((r) => r.blockedMs))
  const degraded = runs[0]?.degraded
  return {
    scenario: '11 extraction',
    variant: `${page.name}, ${where}`,
    latency,
    extra: {
      mainThreadBlockedMs: blocked,
      degraded: degraded ?? null,
      bytes: page.html.length,
      ...(timeLimitMs !== undefined && { timeLimitMs }),
    },
    note: `main thread blocked ≤ ${blocked.max} ms; ${degraded ? `degraded: ${degraded}` : 'readable'}`,
  }
}

/**
 * Scenario 11: reading pages (`pageFromBody`) in page-fetch's worker pool vs on the main thread — a normal article,
 * three pages the pre-scan degrades, and one that outruns its time limit and falls back to plain text. Per page:
 * extraction time, whether it degraded, and the main thread's longest event-loop stall meanwhile.
 */
export async function extractScenario(ctx: ScenarioContext): Promise<VariantResult[]> {
  const iterations = ctx.quick ? 2 : 5
  const timeLimitMs = ctx.quick ? 2000 : 5000
  const pool = createExtractPool({ size: 1, timeoutMs: timeLimitMs })
  const results: VariantResult[] = []
  try {
    const list = await pages()
    // Worker start-up and module loading, once: reported apart, not in the rows' times.
    const cold = await measure(() => pool.pageFromBody(list[0]!.html, 'text/html', { url: URL_OF_PAGE }))
    ctx.log(
      `extract: first job (worker start) ${Math.round(cold.ms)} ms, main thread blocked ≤ ${cold.blockedMs.toFixed(1)} ms`,
    )
    // The noise floor: the longest stall of an idle main thread over 500 ms (timers, GC, a loaded machine).
    const idle = await measure(async () => {
      await new Promise((resolve) => setTimeout(resolve, 500))
      return pageFromBody('', 'text/plain', { url: URL_OF_PAGE })
    })
    for (const page of list) {
      const slow = !page.inline
      const worker: JobFigures[] = []
      for (let i = 0; i < (slow ? 1 : iterations); i++)
        worker.push(await measure(() => pool.pageFromBody(page.html, 'text/html', { url: URL_OF_PAGE })))
      results.push(
        row(page, slow ? `worker, ${timeLimitMs} ms limit` : 'worker', worker, slow ? timeLimitMs : undefined),
      )
      if (!page.inline) continue
      const inline: JobFigures[] = []
      for (let i = 0; i < iterations; i++)
        inline.push(await measure(() => pageFromBody(page.html, 'text/html', { url: URL_OF_PAGE })))
      results.push(row(page, 'main thread', inline))
      ctx.log(
        `extract: ${page.name}: worker p50 ${summarize(worker.map((r) => r.ms)).p50} ms, main thread p50 ${summarize(inline.map((r) => r.ms)).p50} ms`,
      )
    }
    results.push(await timedOutPageRow(ctx))
    results[0]!.extra = { ...results[0]!.extra, firstJobMs: Math.round(cold.ms) }
    results.push({
      scenario: '11 extraction',
      variant: 'idle main thread, 500 ms (noise floor)',
      extra: { mainThreadBlockedMs: Math.round(idle.blockedMs * 100) / 100 },
      note: `main thread blocked ≤ ${idle.blockedMs.toFixed(2)} ms with nothing running`,
    })
    return results
  } finally {
    await pool.close()
  }
}
