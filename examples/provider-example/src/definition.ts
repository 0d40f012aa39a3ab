import type { ProviderDefinition } from '@search-layer/core'
import { createExampleProvider } from './client.js'

/**
 * The example source, described once: search-layer's engine, CLI, server, MCP tools and docs read these fields.
 * `capabilities` are listed strongest first; `priority` breaks ties with other providers (the built-ins use 10-40).
 */
export const exampleDefinition: ProviderDefinition = {
  id: 'example',
  label: 'Example Search',
  docsUrl: 'https://github.com/search-layer/search-layer/blob/main/docs/write-a-provider.md',
  env: { apiKey: ['EXAMPLE_SEARCH_API_KEY'], baseUrl: 'EXAMPLE_SEARCH_URL' },
  defaultBaseUrl: 'https://search.example.com/v1',
  capabilities: ['web'],
  priority: 100,
  rateLimit: { perSecond: 2, burst: 2, maxConcurrent: 4 },
  cost: { usdPerCall: 0.001, note: 'billed per request' },
  create: ({ env, timeoutMs, retries } = {}) => createExampleProvider({ env, timeoutMs, retries }),
}
