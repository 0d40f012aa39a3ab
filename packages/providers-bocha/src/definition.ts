import { type ProviderDefinition, lazyProvider } from '@search-layer/core'
import { bochaService } from './service.js'

/** Bocha (博查) Web Search: a Chinese-first web index with long page summaries. */
export const bochaDefinition: ProviderDefinition = {
  ...bochaService,
  label: 'Bocha Web Search',
  docsUrl: 'https://open.bochaai.com',
  // NOTE(bocha): web-search returns results with summaries, not a written answer (that is the separate ai-search
  // endpoint), so it does not claim `answer`.
  // A regional index: it joins searches in Chinese (the engine's language table asks a `web` vertical for them),
  // never English ones, and never stands in for an engine.
  routing: 'vertical',
  capabilities: ['web'],
  // include/exclude and a freshness range.
  queryFilters: ['site', 'exclude-site', 'date'],
  priority: 50,
  rateLimit: { perSecond: 2, burst: 4, maxConcurrent: 4 },
  // Until its own calls are timed: Bocha's web search answers in ~1–1.5 s (hosted in China).
  typicalLatencyMs: 1200,
  cost: { creditsPerCall: 1, note: 'billed per call from a prepaid balance' },
  // The client (request building, schemas, mapping) loads with the first search that asks this provider.
  create: ({ env, timeoutMs, retries } = {}) =>
    lazyProvider(bochaDefinition, env, () =>
      import('./client.js').then((m) => m.createBochaProvider({ env, timeoutMs, retries })),
    ),
}
