import type { z } from 'zod'
import { safeParseJson } from './safe-parse-json.js'
import type { SearchResult } from './response-schemas.js'
import { parseHttpUrl, passesDomainFilters } from './text.js'

/** Where a vendor result sits: its absolute URL, host and 1-based rank in the vendor's own list. */
export interface ResultPlace {
  url: string
  hostname: string
  rank: number
}

export interface CollectResultsOptions {
  /** Re-apply the request's domain filters to what came back (for vendors that enforce them loosely). */
  filters?: { includeDomains?: readonly string[]; excludeDomains?: readonly string[] }
  /** Keep at most this many results. */
  limit?: number
}

/**
 * Turns a vendor's raw result list into `SearchResult`s: each entry is validated with `schema`, entries without
 * a usable http(s) URL are dropped and counted, optional domain filters and a limit apply; `toResult` does the
 * vendor-specific mapping. Ranks stay the vendor's own positions.
 */
export function collectResults<T extends { url?: unknown }>(
  entries: readonly unknown[],
  schema: z.ZodType<T>,
  toResult: (item: T, place: ResultPlace) => SearchResult,
  options: CollectResultsOptions = {},
): { results: SearchResult[]; dropped: number } {
  const results: SearchResult[] = []
  let dropped = 0
  entries.forEach((entry, index) => {
    const parsed = safeParseJson(schema, entry)
    const parsedUrl = parsed.success ? parseHttpUrl(parsed.data.url) : null
    if (!parsed.success || parsedUrl === null) {
      dropped++
      return
    }
    const url = parsedUrl.href
    const hostname = parsedUrl.hostname
    if (options.filters && !passesDomainFilters(hostname, options.filters)) return
    results.push(toResult(parsed.data, { url, hostname, rank: index + 1 }))
  })
  return { results: options.limit === undefined ? results : results.slice(0, options.limit), dropped }
}
