import { type ProviderDefinition, lazyProvider } from '@search-layer/core'

/** xAI bills server-side web search at $5 per 1000 calls. */
export const GROK_WEB_SEARCH_USD_PER_CALL = 0.005

/**
 * The model used when neither `model` nor `GROK_MODEL` is set: a current xAI model with server-side web search.
 * (`grok-4-fast*` and `grok-4-1-fast*` were retired on 2026-05-15; xAI names `grok-4.3` as their replacement.)
 */
export const GROK_DEFAULT_MODEL = 'grok-4.3'

/** xAI's Grok with server-side web search: a written answer and the URLs it cited. Everything the engine, apps and docs know about this provider. */
export const grokDefinition: ProviderDefinition = {
  id: 'grok',
  label: 'Grok (xAI web search)',
  docsUrl: 'https://docs.x.ai/docs/guides/live-search',
  env: { apiKey: ['XAI_API_KEY', 'GROK_API_KEY'], baseUrl: 'GROK_API_URL', model: 'GROK_MODEL' },
  defaultBaseUrl: 'https://api.x.ai/v1',
  defaultModel: GROK_DEFAULT_MODEL,
  capabilities: ['answer', 'qa', 'web', 'news'],
  // The web_search tool's allowed_domains/excluded_domains; it takes no date or language parameter.
  queryFilters: ['site', 'exclude-site'],
  priority: 40,
  rateLimit: { perSecond: 1, burst: 4, maxConcurrent: 4 },
  cost: { usdPerCall: GROK_WEB_SEARCH_USD_PER_CALL, note: 'model tokens plus a fee per web search call' },
  // The client (request building, schemas, mapping) loads with the first search that asks this provider.
  create: ({ env, timeoutMs, retries } = {}) =>
    lazyProvider(grokDefinition, env, () =>
      import('./client.js').then((m) => m.createGrokProvider({ env, timeoutMs, retries })),
    ),
}
