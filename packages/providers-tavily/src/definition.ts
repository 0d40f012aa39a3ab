import { type ProviderDefinition, lazyProvider } from '@search-layer/core'
import { tavilyService } from './service.js'

/** Tavily's search for agents: a short AI answer beside the results (asked for in answer mode). Everything the engine, apps and docs know about this provider. */
export const tavilyDefinition: ProviderDefinition = {
  ...tavilyService,
  label: 'Tavily',
  docsUrl: 'https://docs.tavily.com/documentation/api-reference/endpoint/search',
  capabilities: ['answer', 'web', 'news', 'qa'],
  // include_domains/exclude_domains and start_date/end_date; Tavily has no phrase or language parameter.
  queryFilters: ['site', 'exclude-site', 'date'],
  priority: 30,
  rateLimit: { perSecond: 2, burst: 5, maxConcurrent: 8 },
  // Until its own calls are timed: Tavily answers in 1–2 s at basic depth (more with `advanced`).
  typicalLatencyMs: 1500,
  cost: { usdPerCall: 0.008, creditsPerCall: 1, note: '1 credit per basic search, 2 per advanced' },
  // The client (request building, schemas, mapping) loads with the first search that asks this provider.
  create: ({ env, timeoutMs, retries, includeAnswer } = {}) =>
    lazyProvider(tavilyDefinition, env, () =>
      import('./client.js').then((m) =>
        m.createTavilyProvider({ env, timeoutMs, retries, ...(includeAnswer !== undefined && { includeAnswer }) }),
      ),
    ),
}
