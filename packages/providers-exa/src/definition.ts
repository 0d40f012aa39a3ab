import { type ProviderDefinition, lazyProvider } from '@search-layer/core'
import { exaService } from './service.js'

/** Exa's neural search: finds pages that answer a question, strong on code and papers. Everything the engine, apps and docs know about this provider. */
export const exaDefinition: ProviderDefinition = {
  ...exaService,
  label: 'Exa',
  docsUrl: 'https://docs.exa.ai/reference/search',
  capabilities: ['qa', 'web', 'code', 'academic'],
  // include/excludeDomains, start/endPublishedDate, includeText/excludeText (one string of up to 5 words each).
  queryFilters: ['site', 'exclude-site', 'date', 'phrase', 'exclude-term'],
  priority: 20,
  rateLimit: { perSecond: 5, burst: 5, maxConcurrent: 8 },
  // Until its own calls are timed: Exa's search answers in ~0.8–1.5 s.
  typicalLatencyMs: 1100,
  cost: { usdPerCall: 0.005, note: 'Exa reports the dollar cost of each call' },
  // The client (request building, schemas, mapping) loads with the first search that asks this provider.
  create: ({ env, timeoutMs, retries } = {}) =>
    lazyProvider(exaDefinition, env, () =>
      import('./client.js').then((m) => m.createExaProvider({ env, timeoutMs, retries })),
    ),
}
