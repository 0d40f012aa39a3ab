import { parseInput } from '@search-layer/core'
import { type FetchPageOptions, fetchPage, sharedExtractPool } from '@search-layer/page-fetch'
import { PASSAGE_INPUT_LIMITS, type ReadPage, findPassages, warmTokenizer } from '@search-layer/passages'
import { z } from 'zod'
import type { PageCache } from './_page-cache.js'
import { type FetchPageLike, type PageTask, readPages } from './_read-pages.js'
import { READ_LIMITS, ReadOptionsSchema } from './options.js'
import { type Evidence, type EvidenceInput, EvidenceInputSchema, type ReadReport } from './schema.js'

/** The page-fetch options a caller may set for the default fetch (not its timeout or signal: reading owns those). */
export type PageFetchOptions = Pick<
  FetchPageOptions,
  'allowHosts' | 'allowPrivateHosts' | 'env' | 'maxBytes' | 'userAgent' | 'extractPool' | 'lookup'
>

/** Options of `readEvidence`. */
export interface ReadEvidenceOptions {
  /** Top results read, 0–10. Default 5. */
  pages?: number
  /** Most tokens (o200k_base) of passage text returned. Default 2,000. */
  budgetTokens?: number
  /** Time allowed for each page (ms), 100–60,000. Default 5,000. */
  timeoutMs?: number
  /** Epoch ms: the hard stop. Pages still arriving then are `timeout`, pages not started `deadline`. */
  deadline?: number
  /** Aborting it ends reading at once: pages not read are `cancelled` (or `timeout` when on their way). */
  signal?: AbortSignal
  /** Pages of one host read at once, 1–10. Default 2. */
  perHost?: number
  /** Fetches one page. Default page-fetch's `fetchPage` (SSRF guard, size caps, extraction in a worker). */
  fetch?: FetchPageLike
  /** Options of the default fetch: `allowHosts` for a trusted self-hosted host, `env`, `maxBytes`… */
  pageFetch?: PageFetchOptions
  /** Read pages are kept here under `page:v1:<url>` and read from it first (the engine's `CacheStore` fits). */
  cache?: PageCache
  /** How long a read page is kept. Default one hour. */
  cacheTtlMs?: number
  /** The clock (epoch ms), for tests. Default `Date.now`. */
  now?: () => number
}

const ExtraOptionsSchema = z.object({
  perHost: z.number().int().min(1).max(10).default(2),
  cacheTtlMs: z
    .number()
    .int()
    .min(1_000)
    .max(30 * 24 * 60 * 60_000)
    .default(60 * 60_000),
  deadline: z.number().finite().optional(),
})

/**
 * Reads the top `pages` results in parallel (page-fetch: SSRF guard, size caps, extraction in a worker; at most
 * `perHost` at once per host) within `deadline`, and returns a report for every one of them (`reads`, in result
 * order) and the best passages of the pages read under `budgetTokens` (`passages`, ids `p1`, `p2`, … with offsets
 * into each page's markdown). Never waits past the deadline. Throws `InputError` for a bad input or option.
 */
export async function readEvidence(input: EvidenceInput, options: ReadEvidenceOptions = {}): Promise<Evidence> {
  const { query, subQueries, results } = parseInput(EvidenceInputSchema, input, 'evidence input')
  const { pages, budgetTokens, timeoutMs } = parseInput(
    ReadOptionsSchema,
    {
      pages: options.pages ?? READ_LIMITS.defaultPages,
      budgetTokens: options.budgetTokens ?? READ_LIMITS.defaultBudgetTokens,
      timeoutMs: options.timeoutMs ?? READ_LIMITS.defaultTimeoutMs,
    },
    'read options',
  )
  const extra = parseInput(ExtraOptionsSchema, options, 'read options')
  const now = options.now ?? Date.now
  const chosen = results.slice(0, pages)
  if (chosen.length === 0) return { reads: [], passages: [] }
  // The first search that reads loads the tokenizer and starts the extraction workers: while the pages travel.
  if (options.fetch) void warmTokenizer()
  else warmReading(options.pageFetch)
  const { tasks, early } = planReads(chosen.map((r) => r.url))
  const fetch = options.fetch ?? defaultFetch(options.pageFetch)
  const read = await readPages(tasks, {
    fetch,
    timeoutMs,
    deadline: extra.deadline ?? Number.POSITIVE_INFINITY,
    ...(options.signal && { signal: options.signal }),
    perHost: extra.perHost,
    ...(options.cache && { cache: options.cache }),
    cacheTtlMs: extra.cacheTtlMs,
    now,
  })
  const reads = [...early, ...read.reports].sort((a, b) => a.resultRank - b.resultRank)
  const readPagesList: ReadPage[] = [...read.pages].map(([task, page]) => {
    const result = chosen[task.resultRank - 1]!
    return {
      url: task.url,
      title: result.title.trim() || page.title?.trim() || task.url,
      markdown: page.markdown,
      resultRank: task.resultRank,
      resultScore: result.score ?? 0,
    }
  })
  if (readPagesList.length === 0) return { reads, passages: [] }
  const passages = await findPassages(
    { query: clip(query), subQueries: passageSubQueries(query, subQueries), pages: readPagesList },
    { budgetTokens },
  )
  return { reads, passages }
}

/**
 * Starts what reading pages takes, so that it loads while something else waits (a search's providers, the pages on
 * their way): the tokenizer (≈ 0.5 s of CPU, once per process) and the extraction workers of the default fetch (a
 * cold one loads its modules for ≈ 0.4 s of CPU and up to a second or more on a loaded machine; they stop when
 * idle). Returns at once.
 */
export function warmReading(pageFetch: PageFetchOptions = {}): void {
  void warmTokenizer()
  const pool = pageFetch.extractPool ?? sharedExtractPool()
  pool.warm()
}

function defaultFetch(pageFetch: PageFetchOptions = {}): FetchPageLike {
  return (url, { timeoutMs, signal }) => fetchPage(url, { ...pageFetch, timeoutMs, signal })
}

/**
 * Which URLs are read: http(s) URLs, each once (a URL equal to a higher result's but for its `#fragment` is a
 * duplicate). The rest are reported at once.
 */
function planReads(urls: readonly string[]): { tasks: PageTask[]; early: ReadReport[] } {
  const tasks: PageTask[] = []
  const early: ReadReport[] = []
  const seen = new Set<string>()
  for (const [i, url] of urls.entries()) {
    const resultRank = i + 1
    const parsed = URL.canParse(url) ? new URL(url) : undefined
    const page = parsed && new URL(parsed.href.replace(/#.*$/s, ''))
    const refused: Pick<ReadReport, 'status' | 'kind' | 'message'> | undefined = !page
      ? { status: 'failed', kind: 'bad_url', message: 'not a URL' }
      : page.protocol !== 'http:' && page.protocol !== 'https:'
        ? { status: 'skipped', kind: 'not_http', message: `${page.protocol} URLs are not read` }
        : seen.has(page.href)
          ? { status: 'skipped', kind: 'duplicate', message: 'the same page as a higher result' }
          : undefined
    if (refused) early.push({ url, resultRank, ...refused, ms: 0, chars: 0 })
    else {
      seen.add(page!.href)
      tasks.push({ url, resultRank, host: page!.hostname.toLowerCase() })
    }
  }
  return { tasks, early }
}

const clip = (text: string) => text.trim().slice(0, PASSAGE_INPUT_LIMITS.maxQueryChars)

/** The sub-queries passages are ranked against: distinct from the query and each other, within the ranker's limits. */
function passageSubQueries(query: string, subQueries: readonly string[]): string[] {
  const seen = new Set([clip(query).toLowerCase()])
  const out: string[] = []
  for (const sub of subQueries) {
    const text = clip(sub)
    if (!text || seen.has(text.toLowerCase())) continue
    seen.add(text.toLowerCase())
    out.push(text)
    if (out.length >= PASSAGE_INPUT_LIMITS.maxSubQueries) break
  }
  return out
}
