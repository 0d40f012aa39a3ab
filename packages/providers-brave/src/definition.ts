import { type ProviderDefinition, lazyProvider } from '@search-layer/core'
import { braveService } from './service.js'

/** Brave's independent web index: fresh news and broad coverage, its own ranking. Everything the engine, apps and docs know about this provider. */
export const braveDefinition: ProviderDefinition = {
  ...braveService,
  label: 'Brave Search',
  docsUrl: 'https://api-dashboard.search.brave.com/app/documentation/web-search/get-started',
  capabilities: ['web', 'news'],
  // Brave reads site:, quotes, -term and filetype: in `q`; dates go in `freshness`, the language in `search_lang`.
  queryFilters: ['site', 'exclude-site', 'date', 'lang', 'phrase', 'exclude-term', 'filetype'],
  priority: 10,
  // Brave's free plan allows 1 request/s.
  rateLimit: { perSecond: 1, burst: 1, maxConcurrent: 4 },
  // Until its own calls are timed: Brave's API answers in ~0.3–0.6 s.
  typicalLatencyMs: 450,
  cost: { usdPerCall: 0.005, creditsPerCall: 1, note: 'billed per request, whatever the result count' },
  // The client (request building, schemas, mapping) loads with the first search that asks this provider.
  create: ({ env, timeoutMs, retries } = {}) =>
    lazyProvider(braveDefinition, env, () =>
      import('./client.js').then((m) => m.createBraveProvider({ env, timeoutMs, retries })),
    ),
}
