/** The page's views, kept in the URL hash so back and forward work (never the key: that stays in the tab). */
export type Route =
  | { view: 'search'; q?: string; intent?: string; mode?: string; n?: string }
  | { view: 'read'; url: string }
  | { view: 'tools' }
  | { view: 'ask'; c?: string }

export function parseRoute(hash: string): Route {
  const [path = '', query = ''] = hash.replace(/^#/, '').split('?')
  const params = new URLSearchParams(query)
  if (path === '/read' && params.get('url')) return { view: 'read', url: params.get('url')! }
  if (path === '/tools') return { view: 'tools' }
  if (path === '/ask') return params.get('c') ? { view: 'ask', c: params.get('c')! } : { view: 'ask' }
  const route: Route = { view: 'search' }
  for (const name of ['q', 'intent', 'mode', 'n'] as const) {
    const value = params.get(name)
    if (value) route[name] = value
  }
  return route
}

export function hrefOf(route: Route): string {
  if (route.view === 'read') return `#/read?url=${encodeURIComponent(route.url)}`
  if (route.view === 'tools') return '#/tools'
  if (route.view === 'ask') return route.c ? `#/ask?c=${encodeURIComponent(route.c)}` : '#/ask'
  const params = new URLSearchParams()
  for (const name of ['q', 'intent', 'mode', 'n'] as const) if (route[name]) params.set(name, route[name]!)
  const query = params.toString()
  return `#/${query ? `?${query}` : ''}`
}

/**
 * Any site can link to this page, and a search may spend the owner's paid quota: a query in the URL the page was
 * opened with is filled in and waits for the user, while routes reached inside the app (history, back and
 * forward) run at once.
 */
const openingHash = location.hash
let navigated = false
addEventListener('hashchange', () => (navigated = true), { once: true })

/** Whether the page is still at the route it was opened with, no navigation inside the app since. */
export const isOpeningRoute = () => !navigated && location.hash === openingHash

export const go = (route: Route) => {
  location.hash = hrefOf(route).slice(1)
}

/** GitHub issues and pull requests open in the reader with their reference graph. */
export const isThreadUrl = (url: string) =>
  /^https?:\/\/(www\.)?github\.com\/[^/]+\/[^/]+\/(issues|pull|discussions)\/\d+/.test(url)
