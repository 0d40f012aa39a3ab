import { type ProviderDefinition, lazyProvider } from '@search-layer/core'
import { hackernewsService } from './service.js'

/** Hacker News stories through Algolia's HN Search API: what developers are discussing now. Keyless. */
export const hackernewsDefinition: ProviderDefinition = {
  ...hackernewsService,
  label: 'Hacker News (Algolia)',
  docsUrl: 'https://hn.algolia.com/api',
  routing: 'vertical',
  capabilities: ['news'],
  // Dates as Algolia numericFilters on created_at_i.
  queryFilters: ['date'],
  priority: 60,
  // A shared public API (10 000 requests an hour per IP): one request a second is well inside it.
  rateLimit: { perSecond: 1, burst: 2, maxConcurrent: 2 },
  // Until its own calls are timed: Algolia's Hacker News search answers in ~0.1–0.5 s.
  typicalLatencyMs: 400,
  cost: { usdPerCall: 0, note: 'free, no key' },
  // The client (request building, schemas, mapping) loads with the first search that asks this provider.
  create: ({ env, timeoutMs, retries } = {}) =>
    lazyProvider(hackernewsDefinition, env, () =>
      import('./client.js').then((m) => m.createHackerNewsProvider({ env, timeoutMs, retries })),
    ),
}
