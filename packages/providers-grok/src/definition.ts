import { type ProviderDefinition, lazyProvider } from '@search-layer/core'
import { GROK_WEB_SEARCH_USD_PER_CALL } from './_cost.js'
import { grokService } from './service.js'

/** xAI's Grok with server-side web search: a written answer and the URLs it cited. Everything the engine, apps and docs know about this provider. */
export const grokDefinition: ProviderDefinition = {
  ...grokService,
  label: 'Grok (xAI web search)',
  docsUrl: 'https://docs.x.ai/docs/guides/live-search',
  capabilities: ['answer', 'qa', 'web', 'news'],
  // The web_search tool's allowed_domains/excluded_domains; it takes no date or language parameter.
  queryFilters: ['site', 'exclude-site'],
  priority: 40,
  rateLimit: { perSecond: 1, burst: 4, maxConcurrent: 4 },
  // Until its own calls are timed: the model searches and writes (xAI's Responses API), often 5–20 s.
  typicalLatencyMs: 8000,
  cost: { usdPerCall: GROK_WEB_SEARCH_USD_PER_CALL, note: 'model tokens plus a fee per web search call' },
  // The client (request building, schemas, mapping) loads with the first search that asks this provider.
  create: ({ env, timeoutMs, retries } = {}) =>
    lazyProvider(grokDefinition, env, () =>
      import('./client.js').then((m) => m.createGrokProvider({ env, timeoutMs, retries })),
    ),
}
