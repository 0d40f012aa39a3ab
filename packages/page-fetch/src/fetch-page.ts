import type { ExtractLimits } from './extract.js'
import type { ReadablePage } from './page.js'
import { type ExtractPool, sharedExtractPool } from './extract-pool.js'
import { renderSettingsFromEnv } from './render-config.js'
import { type PageRenderer, sharedPageRenderer } from './renderer.js'
import { type FetchedResource, type SafeFetchOptions, safeFetch } from './safe-fetch.js'

/** Options of `fetchPage`: those of `safeFetch`, plus where and how the page is read. */
export interface FetchPageOptions extends SafeFetchOptions {
  /** Worker pool that reads the page; default the process-wide one (`closeSharedExtractPool` stops it). */
  extractPool?: ExtractPool
  /** Bounds past which an HTML page degrades to plain text; default `DEFAULT_EXTRACT_LIMITS`. */
  extractLimits?: Partial<ExtractLimits>
  /** Pages of a PDF read, from the first; default `DEFAULT_PDF_MAX_PAGES` (50). */
  maxPdfPages?: number
  /**
   * `auto`: an HTML page whose static reading finds almost no text (under 200 characters) and that has scripts (an
   * app shell) is rendered in headless Chromium and read again; `never`: pages are read as served. Default `auto`
   * when `SEARCH_LAYER_BROWSER=chromium` in `env`, else `never`.
   */
  render?: 'auto' | 'never'
  /** Renders app shells; default the process-wide one for `CHROMIUM_PATH` (`closeSharedPageRenderer` stops it). */
  renderer?: PageRenderer
}

// Below this many characters of text, a page with scripts is taken for an app shell that builds its text in the browser.
const APP_SHELL_TEXT = 200

/**
 * Fetches a URL with `safeFetch` and returns its readable content: HTML through Readability, JSON, markdown,
 * plain text, feeds and PDFs (their text layer, `<!-- page N -->` before each page) as pages too. Reading runs in
 * a worker within what is left of `timeoutMs`; a page that is too complex, or not read in time, comes back as
 * plain text with `degraded` set, while a PDF that is not read in time fails. With rendering on (`render`), an app
 * shell is rendered in headless Chromium, every request of the browser going through the same address check.
 * Rejects with `FetchError` (every kind `safeFetch` has; `timeout` also when `signal` aborts while the page is read
 * or rendered; for a PDF, `empty` without a text layer, `unreadable` when broken or encrypted, `too_large` when it
 * outgrows the worker's memory; `render_failed` when rendering fails), and with `ConfigError` when
 * `SEARCH_LAYER_BROWSER` is neither `chromium` nor `off`.
 */
export async function fetchPage(url: string, options: FetchPageOptions = {}): Promise<ReadablePage> {
  const { extractPool, extractLimits, maxPdfPages, render, renderer, ...fetchOptions } = options
  const startedAt = Date.now()
  const timeoutMs = options.timeoutMs ?? 10_000
  const settings = render === undefined || renderer === undefined ? renderSettingsFromEnv(options.env) : undefined
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
  const read = (text: string, finalUrl: string) =>
    pool.pageFromBody(text, resource.contentType, {
      url: resource.url,
      finalUrl,
      ...(extractLimits && { limits: extractLimits }),
      ...(options.signal && { signal: options.signal }),
      timeoutMs: remainingMs(),
    })
  const page = await read(resource.text, resource.finalUrl)
  if ((render ?? (settings?.enabled ? 'auto' : 'never')) === 'never' || !isAppShell(page, resource)) return page
  const rendered = await (renderer ?? sharedPageRenderer(settings?.executablePath)).render({
    document: resource,
    guard: fetchOptions,
    // The rest of the time, less a quarter (at most 2 s) kept for reading the rendered page.
    timeoutMs: Math.max(1, Math.floor(remainingMs() - Math.min(2_000, remainingMs() / 4))),
    ...(options.signal && { signal: options.signal }),
  })
  return read(rendered.html, rendered.finalUrl)
}

/** An HTML page with scripts whose static reading found almost no text: its text is built in the browser. */
function isAppShell(page: ReadablePage, resource: FetchedResource): boolean {
  const html = resource.contentType === 'text/html' || resource.contentType === 'application/xhtml+xml'
  return html && page.text.trim().length < APP_SHELL_TEXT && /<script\b/i.test(resource.text)
}
