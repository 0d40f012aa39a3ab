import { type ProviderDefinition, lazyProvider } from '@search-layer/core'
import { duckduckgoService } from './service.js'

/** DuckDuckGo's HTML results page: a keyless general web index, paced politely. */
export const duckduckgoDefinition: ProviderDefinition = {
  ...duckduckgoService,
  label: 'DuckDuckGo (HTML)',
  docsUrl: 'https://html.duckduckgo.com/html/',
  // A last resort: searched only when no keyed engine (and no SearXNG instance) is configured.
  routing: 'fallback',
  capabilities: ['web'],
  // DuckDuckGo reads site:, quotes, -term and filetype: in `q`; dates go in `df`, the language in the `kl` region.
  queryFilters: ['site', 'exclude-site', 'date', 'lang', 'phrase', 'exclude-term', 'filetype'],
  priority: 80,
  // A shared public page, not an API: one request a second, one at a time (the client enforces this too).
  rateLimit: { perSecond: 1, burst: 1, maxConcurrent: 1 },
  // Until its own calls are timed: The HTML endpoint answers in ~0.5–1 s.
  typicalLatencyMs: 800,
  cost: { usdPerCall: 0, note: 'free, no key; bursts get a bot challenge page' },
  // The client (request building, schemas, mapping) loads with the first search that asks this provider.
  create: ({ env, timeoutMs, retries, pace } = {}) =>
    lazyProvider(duckduckgoDefinition, env, () =>
      import('./client.js').then((m) => m.createDuckDuckGoProvider({ env, timeoutMs, retries, pace })),
    ),
}
