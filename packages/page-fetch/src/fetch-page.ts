import type { ExtractLimits } from './extract.js'
import type { ReadablePage } from './page.js'
import { type ExtractPool, sharedExtractPool } from './extract-pool.js'
import { type SafeFetchOptions, safeFetch } from './safe-fetch.js'

/** Options of `fetchPage`: those of `safeFetch`, plus where and how the page is read. */
export interface FetchPageOptions extends SafeFetchOptions {
  /** Worker pool that reads the page; default the process-wide one (`closeSharedExtractPool` stops it). */
  extractPool?: ExtractPool
  /** Bounds past which an HTML page degrades to plain text; default `DEFAULT_EXTRACT_LIMITS`. */
  extractLimits?: Partial<ExtractLimits>
  /** Pages of a PDF read, from the first; default `DEFAULT_PDF_MAX_PAGES` (50). */
  maxPdfPages?: number
}

/**
 * Fetches a URL with `safeFetch` and returns its readable content: HTML through Readability, JSON, markdown,
 * plain text, feeds and PDFs (their text layer, `<!-- page N -->` before each page) as pages too. Reading runs in
 * a worker within what is left of `timeoutMs`; a page that is too complex, or not read in time, comes back as
 * plain text with `degraded` set, while a PDF that is not read in time fails. Rejects only with `FetchError`
 * (every kind `safeFetch` has; `timeout` also when `signal` aborts while the page is read; for a PDF, `empty`
 * without a text layer, `unreadable` when broken or encrypted, `too_large` when it outgrows the worker's memory).
 */
export async function fetchPage(url: string, options: FetchPageOptions = {}): Promise<ReadablePage> {
  const { extractPool, extractLimits, maxPdfPages, ...fetchOptions } = options
  const startedAt = Date.now()
  const timeoutMs = options.timeoutMs ?? 10_000
  const resource = await safeFetch(url, fetchOptions)
  const pool = extractPool ?? sharedExtractPool()
  const remainingMs = () => Math.max(0, startedAt + timeoutMs - Date.now())
  if (resource.contentType === 'application/pdf')
    return pool.pageFromPdf(resource.body, {
      url: resource.url,
      finalUrl: resource.finalUrl,
      ...(maxPdfPages !== undefined && { maxPages: maxPdfPages }),
      ...(options.signal && { signal: options.signal }),
      timeoutMs: remainingMs(),
    })
  return pool.pageFromBody(resource.text, resource.contentType, {
    url: resource.url,
    finalUrl: resource.finalUrl,
    ...(extractLimits && { limits: extractLimits }),
    ...(options.signal && { signal: options.signal }),
    timeoutMs: remainingMs(),
  })
}
