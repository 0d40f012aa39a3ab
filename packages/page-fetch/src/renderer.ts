import type { BrowserContext, Page } from 'playwright-core'
import { raceAbort, truncate } from './_host-guard.js'
import { BrowserSession, Slots } from './_browser-session.js'
import { RenderRequests, navigationError } from './_render-route.js'
import { FetchError, isFetchError } from './errors.js'
import { findBrowserExecutable } from './render-config.js'
import type { FetchedResource, SafeFetchOptions } from './safe-fetch.js'

/** What one render may use. */
export interface RenderLimits {
  /** Requests the page may make (scripts, styles, data, images); later ones are refused. Default 200. */
  maxRequests: number
  /** Bytes those requests may bring in, all together; later ones are refused. Default 20 MiB. */
  maxBytes: number
  /** Characters of rendered HTML read back; a larger DOM fails the render (`render_failed`). Default 5 MiB. */
  maxHtmlChars: number
  /** V8 old-space limit of the browser's pages (MB); a page past it crashes (`render_failed`). Default 256. */
  maxHeapMb: number
}

/** The default `RenderLimits`. */
export const DEFAULT_RENDER_LIMITS: Readonly<RenderLimits> = Object.freeze({
  maxRequests: 200,
  maxBytes: 20 * 1024 * 1024,
  maxHtmlChars: 5 * 1024 * 1024,
  maxHeapMb: 256,
})

/** Options of `createPageRenderer`. */
export interface PageRendererOptions {
  /** The Chromium executable: a path, or a name looked up on `PATH`. Default `chromium`. */
  executablePath?: string
  limits?: Partial<RenderLimits>
  /** Renders at once; the others wait their turn (within their own time limit). Default 2. */
  maxConcurrent?: number
  /** The shared browser closes after this long without a render (ms). Default 30 000. */
  idleCloseMs?: number
}

/** One page to render. */
export interface RenderRequest {
  /** The page as `safeFetch` fetched it: the browser's navigation is answered with these bytes. */
  document: FetchedResource
  /** The address check (and its exemptions) every request of the browser goes through. */
  guard?: SafeFetchOptions
  /** Time allowed for the whole render, waiting for a turn included (ms). */
  timeoutMs: number
  signal?: AbortSignal
}

/** A rendered page: its DOM as HTML once loaded, and what it took. */
export interface RenderedPage {
  html: string
  /** The page's URL when it was read (scripts may change it). */
  finalUrl: string
  /** Requests the page made that were fetched, and their bytes. */
  requests: number
  bytes: number
}

/** Renders pages in one shared headless Chromium (`createPageRenderer`). */
export interface PageRenderer {
  /**
   * Loads the page, lets its scripts run until the network is quiet, and returns the DOM as HTML. Rejects only with
   * `FetchError`: `timeout` (out of time, or `signal` aborted), `blocked` (the guard refused the page's navigation),
   * `render_failed` (no browser, a crash, a limit passed).
   */
  render(request: RenderRequest): Promise<RenderedPage>
  /** True while the shared browser runs. */
  readonly browserOpen: boolean
  /** Closes the browser; a later render launches it again. */
  close(): Promise<void>
}

// After `load`, how long the page gets to go quiet (no request for 500 ms) before its DOM is read.
const SETTLE_MS = 3_000
// How long closing one page's context may take before the whole browser is closed instead.
const CLOSE_GRACE_MS = 3_000

/**
 * A renderer over one shared Chromium (launched on first render through playwright-core, closed when idle, launched
 * again after a crash). Every request the browser makes is fetched by `safeFetch` in Node under `guard`; the
 * browser's own connections go to a dead proxy.
 */
export function createPageRenderer(options: PageRendererOptions = {}): PageRenderer {
  const limits = { ...DEFAULT_RENDER_LIMITS, ...options.limits }
  const wanted = options.executablePath ?? 'chromium'
  const executablePath = findBrowserExecutable(wanted) ?? wanted
  const session = new BrowserSession({
    executablePath,
    maxHeapMb: limits.maxHeapMb,
    idleCloseMs: options.idleCloseMs ?? 30_000,
  })
  const slots = new Slots(options.maxConcurrent ?? 2)

  async function render(request: RenderRequest): Promise<RenderedPage> {
    const url = request.document.url
    const timeoutSignal = AbortSignal.timeout(Math.max(1, Math.floor(request.timeoutMs)))
    const signal = request.signal ? AbortSignal.any([request.signal, timeoutSignal]) : timeoutSignal
    const deadline = Date.now() + request.timeoutMs
    try {
      await slots.take(signal)
      try {
        // Out of time already (the fetch before took it all): no browser is started for nothing.
        if (signal.aborted) throw signal.reason
        return await raceAbort(renderInBrowser(request, signal, deadline), signal)
      } finally {
        slots.free()
      }
    } catch (error) {
      throw toRenderError(error, url, request.signal, timeoutSignal, request.timeoutMs)
    }
  }

  async function renderInBrowser(request: RenderRequest, signal: AbortSignal, deadline: number): Promise<RenderedPage> {
    const { document } = request
    const browser = await session.acquire().catch((cause: unknown) => {
      throw new FetchError(`could not start Chromium (${executablePath}) to render ${document.url}`, {
        kind: 'render_failed',
        url: document.url,
        cause,
      })
    })
    if (signal.aborted) {
      session.release()
      throw signal.reason
    }
    let context: BrowserContext | undefined
    const closeContext = () => void closeWithin(context, session)
    signal.addEventListener('abort', closeContext, { once: true })
    try {
      context = await browser.newContext({ serviceWorkers: 'block', acceptDownloads: false })
      const budget = { maxRequests: limits.maxRequests, maxBytes: limits.maxBytes }
      const requests = new RenderRequests(document, request.guard ?? {}, budget, signal, deadline)
      await context.route('**/*', requests.handle)
      await context.routeWebSocket(/.*/, (ws) => ws.close({ code: 1008, reason: 'refused by page-fetch' }))
      const page = await context.newPage()
      const html = await raceCrash(page, document.url, () => loadAndRead(page, requests, document, deadline))
      return { html, finalUrl: page.url(), requests: requests.requests, bytes: requests.bytes }
    } finally {
      signal.removeEventListener('abort', closeContext)
      closeContext()
      session.release()
    }
  }

  async function loadAndRead(
    page: Page,
    requests: RenderRequests,
    served: FetchedResource,
    deadline: number,
  ): Promise<string> {
    const left = () => Math.max(1, deadline - Date.now())
    try {
      await page.goto(served.finalUrl, { waitUntil: 'load', timeout: left() })
    } catch (error) {
      if (requests.refusedNavigation) throw navigationError(requests, served.url)
      throw error
    }
    await page.waitForLoadState('networkidle', { timeout: Math.min(SETTLE_MS, left()) }).catch(() => {})
    if (!/^https?:/.test(page.url())) throw navigationError(requests, served.url)
    const html = await page.evaluate((max) => {
      // Runs in the page: its `document` (this package is typed without the DOM library).
      const dom = (globalThis as unknown as { document: { documentElement: { outerHTML: string } | null } }).document
      const markup = dom.documentElement?.outerHTML ?? ''
      return markup.length > max ? markup.length : markup
    }, limits.maxHtmlChars)
    if (typeof html === 'number')
      throw new FetchError(
        `rendered ${served.url} is ${html} characters of HTML, over the ${limits.maxHtmlChars}-character limit`,
        { kind: 'render_failed', url: served.url },
      )
    return `<!DOCTYPE html>\n${html}`
  }

  return {
    render,
    get browserOpen() {
      return session.open
    },
    close: () => session.close(),
  }
}

/** Closes one render's context; if that hangs (a renderer stuck in a loop), closes the whole browser instead. */
async function closeWithin(context: BrowserContext | undefined, session: BrowserSession): Promise<void> {
  if (!context) return
  let timer: NodeJS.Timeout | undefined
  const stuck = new Promise<'stuck'>((resolve) => {
    timer = setTimeout(() => resolve('stuck'), CLOSE_GRACE_MS)
  })
  const outcome = await Promise.race([
    context.close().then(
      () => 'closed' as const,
      () => 'closed' as const,
    ),
    stuck,
  ])
  clearTimeout(timer)
  if (outcome === 'stuck') await session.close()
}

/** Runs `work`, failing with `render_failed` as soon as the page's renderer process crashes (out of memory). */
function raceCrash<T>(page: Page, url: string, work: () => Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    page.once('crash', () =>
      reject(
        new FetchError(`the browser's page crashed while rendering ${url} (out of memory?)`, {
          kind: 'render_failed',
          url,
        }),
      ),
    )
    work().then(resolve, reject)
  })
}

function toRenderError(
  error: unknown,
  url: string,
  callerSignal: AbortSignal | undefined,
  timeoutSignal: AbortSignal,
  timeoutMs: number,
): FetchError {
  if (callerSignal?.aborted)
    return new FetchError(`rendering ${truncate(url)} was cancelled`, {
      kind: 'timeout',
      url,
      retryable: false,
      cause: error,
    })
  if (isFetchError(error)) return error
  if (timeoutSignal.aborted || (error instanceof Error && error.name === 'TimeoutError'))
    return new FetchError(`rendering ${truncate(url)} did not complete within ${timeoutMs} ms`, {
      kind: 'timeout',
      url,
      cause: error,
    })
  const message = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error)
  return new FetchError(`rendering ${truncate(url)} failed: ${truncate(message, 160)}`, {
    kind: 'render_failed',
    url,
    cause: error,
  })
}

let shared: { executablePath: string; renderer: PageRenderer } | undefined

/**
 * The process-wide renderer `fetchPage` uses when rendering is on (one browser for every fetch), for `executablePath`;
 * asking for another path closes the previous one. `closeSharedPageRenderer` stops it.
 */
export function sharedPageRenderer(executablePath = 'chromium'): PageRenderer {
  if (shared?.executablePath !== executablePath) {
    void shared?.renderer.close()
    shared = { executablePath, renderer: createPageRenderer({ executablePath }) }
  }
  return shared.renderer
}

/** Closes the process-wide renderer's browser, if one runs (server shutdown, the end of a CLI run). */
export async function closeSharedPageRenderer(): Promise<void> {
  const current = shared
  shared = undefined
  await current?.renderer.close()
}
