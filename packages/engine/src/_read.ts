import type { Evidence, PageFetchOptions } from '@search-layer/evidence'
import type { LayerParts } from './_layer.js'
import type { CacheStore } from './cache.js'
import type { ParsedSearchRequest } from './request.js'
import type { SearchResultOut } from './response.js'

/** What reading needs of the layer: its clock, its env, its cache and the page-fetch options it was given. */
export interface ReadingParts {
  now: LayerParts['now']
  env: LayerParts['env']
  cache?: CacheStore
  pageFetch?: PageFetchOptions
}

/** The pages this request reads: 0 when it reads none. */
export const pagesToRead = (req: ParsedSearchRequest): number => req.read?.pages ?? 0

/**
 * The time a reading search keeps for reading: its page timeout, at most a quarter of the deadline. The providers
 * get the deadline minus this; reading gets what is left when they are done, up to the deadline.
 */
export function readingReserveMs(req: ParsedSearchRequest): number {
  return req.read && req.read.pages > 0 ? Math.min(req.read.timeoutMs, Math.floor(req.deadlineMs / 4)) : 0
}

// Loaded by the first search that reads: page-fetch (undici, the extraction worker), the passage ranker and the
// tokenizer are no cost to a search that does not.
let evidenceModule: Promise<typeof import('@search-layer/evidence')> | undefined
const loadEvidence = () => (evidenceModule ??= import('@search-layer/evidence'))

/**
 * Starts loading what reading takes (the evidence module, the tokenizer, page-fetch's extraction workers) as a
 * search that reads begins, so a cold process loads it while the providers answer rather than after them.
 */
export function prepareReading(parts: ReadingParts, req: ParsedSearchRequest): void {
  if (pagesToRead(req) === 0) return
  // Warming is an optimisation: a failure to load shows where reading runs (readTopResults), and a failure to warm
  // (a bundle whose evidence entry lacks warmReading, a worker that cannot start) must never end the process as an
  // unhandled rejection.
  loadEvidence()
    .then((evidence) => evidence.warmReading(parts.pageFetch))
    .catch(() => undefined)
}

/**
 * Reads the top results of a search that asks for it, by `deadlineAt`: the query without its operators, the
 * request's `read.question` and the sub-queries rank the passages. Pages are cached in the layer's cache store, unless the request turned the cache off.
 */
export async function readTopResults(
  parts: ReadingParts,
  req: ParsedSearchRequest,
  { query, queries, results }: { query: string; queries: readonly string[]; results: readonly SearchResultOut[] },
  deadlineAt: number,
  signal?: AbortSignal,
): Promise<Evidence> {
  const read = req.read!
  const top = results.slice(0, read.pages)
  // The words left once operators are stripped (never empty in a parsed request; else the first query run).
  const rankBy = query.trim() || queries.find((q) => q.trim()) || top[0]?.title || 'page'
  // The question goes first among the sub-queries, so the ranker's cap on them never drops it.
  const subQueries = [...(read.question ? [read.question] : []), ...queries].filter((q) => q !== rankBy)
  const { readEvidence } = await loadEvidence()
  try {
    return await readEvidence(
      {
        query: rankBy,
        subQueries,
        results: top.map((r) => ({
          url: r.url,
          title: r.title,
          ...(r.score !== undefined && { score: Math.max(0, r.score) }),
        })),
      },
      {
        pages: read.pages,
        budgetTokens: read.budgetTokens,
        timeoutMs: read.timeoutMs,
        deadline: deadlineAt,
        ...(signal && { signal }),
        pageFetch: { env: parts.env, ...parts.pageFetch },
        ...(req.cache && parts.cache && { cache: parts.cache }),
        now: parts.now,
      },
    )
  } catch (error) {
    // Reading never fails the search it is part of: every page is still accounted for.
    const message = `not read: ${error instanceof Error ? error.message : String(error)}`.slice(0, 500)
    const reads = top.map((r, i) => ({
      url: r.url,
      resultRank: i + 1,
      status: 'failed' as const,
      kind: 'failed' as const,
      message,
      ms: 0,
      chars: 0,
    }))
    return { reads, passages: [] }
  }
}
