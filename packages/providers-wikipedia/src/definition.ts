import { type ProviderDefinition, lazyProvider } from '@search-layer/core'
import { wikipediaService } from './service.js'

/** Wikipedia articles through MediaWiki's search API: reference answers in the query's language. Keyless. */
export const wikipediaDefinition: ProviderDefinition = {
  ...wikipediaService,
  label: 'Wikipedia',
  docsUrl: 'https://www.mediawiki.org/wiki/API:Search',
  // One site: it joins factual and exploratory searches (and Chinese ones, in zh and en), never stands in for an
  // engine. `reference` first, so a `qa` search asks a Q&A site before it.
  routing: 'vertical',
  capabilities: ['reference', 'qa', 'academic'],
  // The language picks the wiki; CirrusSearch reads quotes and -term in `srsearch`.
  queryFilters: ['lang', 'phrase', 'exclude-term'],
  priority: 70,
  // Wikimedia asks API clients to keep requests serial and modest; a Chinese query makes two (zh and en).
  rateLimit: { perSecond: 2, burst: 4, maxConcurrent: 2 },
  // Until its own calls are timed: The MediaWiki search API answers in ~0.2–0.5 s.
  typicalLatencyMs: 400,
  cost: { usdPerCall: 0, note: 'free, no key; Wikimedia requires a descriptive User-Agent' },
  // The client (request building, schemas, mapping) loads with the first search that asks this provider.
  create: ({ env, timeoutMs, retries } = {}) =>
    lazyProvider(wikipediaDefinition, env, () =>
      import('./client.js').then((m) => m.createWikipediaProvider({ env, timeoutMs, retries })),
    ),
}
