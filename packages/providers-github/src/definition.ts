import { type ProviderDefinition, lazyProvider } from '@search-layer/core'
import { githubService } from './service.js'

/** GitHub's REST search: repositories for code questions, issues for bugs and "is this fixed?". A token is optional. */
export const githubDefinition: ProviderDefinition = {
  ...githubService,
  label: 'GitHub search',
  docsUrl: 'https://docs.github.com/rest/search/search',
  routing: 'vertical',
  capabilities: ['code'],
  // Dates as created:/pushed: qualifiers; GitHub search reads quoted phrases in `q`.
  queryFilters: ['date', 'phrase'],
  priority: 60,
  // Search allows 10 requests a minute without a token (30 with): pace for the keyless case.
  rateLimit: { perSecond: 0.16, burst: 3, maxConcurrent: 2 },
  // Until its own calls are timed: GitHub's search API answers in ~0.5–1 s.
  typicalLatencyMs: 800,
  cost: { usdPerCall: 0, note: 'free; 10 searches a minute without a token, 30 with GITHUB_TOKEN' },
  // The client (request building, schemas, mapping) loads with the first search that asks this provider.
  create: ({ env, timeoutMs, retries } = {}) =>
    lazyProvider(githubDefinition, env, () =>
      import('./client.js').then((m) => m.createGithubProvider({ env, timeoutMs, retries })),
    ),
}
