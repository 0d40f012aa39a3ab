import { type ProviderDefinition, lazyProvider } from '@search-layer/core'
import { stackexchangeService } from './service.js'

/** Stack Overflow questions through the Stack Exchange API: answered programming questions, accepted answers first. */
export const stackexchangeDefinition: ProviderDefinition = {
  ...stackexchangeService,
  label: 'Stack Overflow (Stack Exchange API)',
  docsUrl: 'https://api.stackexchange.com/docs/advanced-search',
  routing: 'vertical',
  capabilities: ['qa', 'code'],
  // Dates as fromdate/todate.
  queryFilters: ['date'],
  priority: 65,
  // The API throttles above 30 requests/s per IP and allows 300 a day without a key (10 000 with one).
  rateLimit: { perSecond: 1, burst: 2, maxConcurrent: 2 },
  // Until its own calls are timed: The Stack Exchange API answers in ~0.3–0.8 s.
  typicalLatencyMs: 600,
  cost: { usdPerCall: 0, note: 'free; 300 requests a day per IP without STACKEXCHANGE_KEY, 10 000 with' },
  // The client (request building, schemas, mapping) loads with the first search that asks this provider.
  create: ({ env, timeoutMs, retries } = {}) =>
    lazyProvider(stackexchangeDefinition, env, () =>
      import('./client.js').then((m) => m.createStackExchangeProvider({ env, timeoutMs, retries })),
    ),
}
