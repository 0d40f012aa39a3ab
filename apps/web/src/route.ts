/** The page's views, kept in the URL hash so back and forward work (never the key: that stays in the tab). */
export type Route =
  | { view: 'search'; q?: string; intent?: string; mode?: string; n?: string }
  | { view: 'read'; url: string }
  | { view: 'tools' }

export function parseRoute(hash: string): Route {
  const [path = '', query = ''] = hash.replace(/^#/, '').split('?')
  const params = new URLSearchParams(query)
  if (path === '/read' && params.get('url')) return { view: 'read', url: params.get('url')! }
  if (path === '/tools') return { view: 'tools' }
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
  const params = new URLSearchParams()
  for (const name of ['q', 'intent', 'mode', 'n'] as const) if (route[name]) params.set(name, route[name]!)
  const query = params.toString()
  return `#/${query ? `?${query}` : ''}`
}

export const go = (route: Route) => {
  location.hash = hrefOf(route).slice(1)
}

/** GitHub issues and pull requests open in the reader with their reference graph. */
export const isThreadUrl = (url: string) =>
  /^https?:\/\/(www\.)?github\.com\/[^/]+\/[^/]+\/(issues|pull|discussions)\/\d+/.test(url)
