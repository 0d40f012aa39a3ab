import type { ProviderDefinition } from '@search-layer/core'
import { createHackerNewsProvider } from './client.js'

/** Hacker News stories through Algolia's HN Search API: what developers are discussing now. Keyless. */
export const hackernewsDefinition: ProviderDefinition = {
  id: 'hackernews',
  label: 'Hacker News (Algolia)',
  docsUrl: 'https://hn.algolia.com/api',
  env: { apiKey: [], baseUrl: 'HN_API_URL' },
  defaultBaseUrl: 'https://hn.algolia.com/api/v1',
  keyless: true,
  routing: 'vertical',
  capabilities: ['news'],
  // Dates as Algolia numericFilters on created_at_i.
  queryFilters: ['date'],
  priority: 60,
  // A shared public API (10 000 requests an hour per IP): one request a second is well inside it.
  rateLimit: { perSecond: 1, burst: 2, maxConcurrent: 2 },
  cost: { usdPerCall: 0, note: 'free, no key' },
  create: ({ env, timeoutMs, retries } = {}) => createHackerNewsProvider({ env, timeoutMs, retries }),
}
