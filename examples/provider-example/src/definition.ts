import type { ProviderDefinition } from '@search-layer/core'
import { exampleService } from './service.js'
import { EXAMPLE_USD_PER_CALL, createExampleProvider } from './client.js'

/**
 * The example source, described once: search-layer's engine, CLI, server, MCP tools and docs read these fields.
 * `capabilities` are listed strongest first; `priority` breaks ties with other providers (the built-ins use 10-40).
 */
export const exampleDefinition: ProviderDefinition = {
  ...exampleService,
  label: 'Example Search',
  docsUrl: 'https://github.com/search-layer/search-layer/blob/main/docs/write-a-provider.md',
  capabilities: ['web'],
  priority: 100,
  rateLimit: { perSecond: 2, burst: 2, maxConcurrent: 4 },
  cost: { usdPerCall: EXAMPLE_USD_PER_CALL, note: 'billed per request' },
  create: ({ env, timeoutMs, retries } = {}) => createExampleProvider({ env, timeoutMs, retries }),
}
