import { type ProviderDefinition, lazyProvider } from '@search-layer/core'
import { searxngService } from './service.js'

/** A SearXNG instance's JSON API: many engines' web and news results through one self-hosted metasearch. */
export const searxngDefinition: ProviderDefinition = {
  ...searxngService,
  label: 'SearXNG',
  docsUrl: 'https://docs.searxng.org/dev/search_api.html',
  // Free once the instance is set, but only searched when no keyed engine is configured (then before DuckDuckGo).
  routing: 'fallback',
  capabilities: ['web', 'news'],
  // SearXNG hands site:, quotes, -term and filetype: in `q` to its engines; `language` is a parameter. Its `time_range` has no explicit range.
  queryFilters: ['site', 'exclude-site', 'lang', 'phrase', 'exclude-term', 'filetype'],
  priority: 55,
  // An instance queries many engines per request; public instances throttle hard.
  rateLimit: { perSecond: 1, burst: 2, maxConcurrent: 2 },
  // Until its own calls are timed: an instance answers once the engines it asks have, ~1–2 s.
  typicalLatencyMs: 1500,
  cost: { usdPerCall: 0, note: 'free; your own instance (public ones throttle and often disable JSON)' },
  // The client (request building, schemas, mapping) loads with the first search that asks this provider.
  create: ({ env, timeoutMs, retries } = {}) =>
    lazyProvider(searxngDefinition, env, () =>
      import('./client.js').then((m) => m.createSearxngProvider({ env, timeoutMs, retries })),
    ),
}
