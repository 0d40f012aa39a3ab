import type { Route } from 'playwright-core'
import { FetchError, isFetchError } from './errors.js'
import { type FetchedResource, type SafeFetchOptions, safeFetch } from './safe-fetch.js'

// Every request the browser makes is answered here, in Node: fetched with `safeFetch` (the address check on every
// redirect hop, the connection pinned to the address checked) and handed back with `route.fulfill`. The browser
// itself never opens a connection.

/** What one render may fetch. */
export interface RouteBudget {
  maxRequests: number
  maxBytes: number
}

/** The state of one render's requests. */
export class RenderRequests {
  requests = 0
  bytes = 0
  /** The guard's refusal of a main-frame navigation, reported if the page ends on the browser's error page. */
  refusedNavigation: FetchError | undefined
  private documentServed = false

  constructor(
    private readonly document: FetchedResource,
    private readonly guard: SafeFetchOptions,
    private readonly budget: RouteBudget,
    private readonly signal: AbortSignal,
    private readonly deadline: number,
  ) {}

  /** The `route` handler: answers one browser request. */
  readonly handle = async (route: Route): Promise<void> => {
    const request = route.request()
    const url = request.url()
    const navigation = request.isNavigationRequest() && request.frame().parentFrame() === null
    if (navigation && !this.documentServed && withoutHash(url) === withoutHash(this.document.finalUrl)) {
      // The page was fetched already (and checked) for its static extraction: the browser gets those bytes.
      this.documentServed = true
      return this.fulfill(route, this.document)
    }
    const method = request.method()
    if ((method !== 'GET' && method !== 'HEAD') || this.requests >= this.budget.maxRequests)
      return this.abort(route, 'blockedbyclient')
    this.requests += 1
    const left = this.budget.maxBytes - this.bytes
    if (left <= 0) return this.abort(route, 'blockedbyclient')
    try {
      const resource = await safeFetch(url, {
        ...this.guard,
        allowedContentTypes: ['*/*'],
        maxBytes: Math.min(left, this.guard.maxBytes ?? left),
        timeoutMs: Math.max(1, this.deadline - Date.now()),
        signal: this.signal,
        headers: { accept: request.headers().accept ?? '*/*' },
      })
      this.bytes += resource.bytes
      await this.fulfill(route, resource)
    } catch (error) {
      await this.refused(route, error, navigation)
    }
  }

  private async refused(route: Route, error: unknown, navigation: boolean): Promise<void> {
    if (isFetchError(error) && error.kind === 'http' && error.status !== undefined && !navigation)
      return this.fulfillStatus(route, error.status)
    if (navigation && isFetchError(error)) this.refusedNavigation ??= error
    const blocked = isFetchError(error) && (error.kind === 'blocked' || error.kind === 'bad_url')
    return this.abort(route, blocked ? 'blockedbyclient' : 'failed')
  }

  private async fulfill(route: Route, resource: FetchedResource): Promise<void> {
    const contentType = resource.headers['content-type'] ?? resource.contentType
    await route
      .fulfill({ status: resource.status, headers: { 'content-type': contentType }, body: resource.body })
      .catch(() => {})
  }

  private async fulfillStatus(route: Route, status: number): Promise<void> {
    await route.fulfill({ status, headers: { 'content-type': 'text/plain' }, body: '' }).catch(() => {})
  }

  private async abort(route: Route, code: 'blockedbyclient' | 'failed'): Promise<void> {
    // The page may be gone already (the render ended); its requests then need no answer.
    await route.abort(code).catch(() => {})
  }
}

const withoutHash = (url: string) => url.split('#')[0]

/** The error a render ends with when the page could not be shown: the guard's refusal of its navigation. */
export function navigationError(requests: RenderRequests, url: string): FetchError {
  const refused = requests.refusedNavigation
  if (refused)
    return new FetchError(`rendering ${url}: its navigation was refused: ${refused.message}`, {
      kind: refused.kind,
      url,
    })
  return new FetchError(`rendering ${url} ended on the browser's error page`, { kind: 'render_failed', url })
}
