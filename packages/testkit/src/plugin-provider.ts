import {
  type ProviderDefinition,
  type ProviderRequest,
  type ProviderResponse,
  defineProvider,
} from '@search-layer/core'

/**
 * A keyless plug-in provider for tests, answering every call with `answer(request)`: it declares no query filters,
 * so whatever the engine does with its results (enforce, fold, move down) is the engine's own doing.
 */
export function pluginProvider(id: string, answer: (request: ProviderRequest) => ProviderResponse): ProviderDefinition {
  const definition: ProviderDefinition = {
    id,
    label: `${id} (test plug-in)`,
    docsUrl: `https://${id}.example/docs`,
    env: { apiKey: [], baseUrl: `${id.toUpperCase()}_URL` },
    defaultBaseUrl: `https://${id}.example`,
    keyless: true,
    capabilities: ['web'],
    priority: 60,
    rateLimit: { perSecond: 100, burst: 100, maxConcurrent: 8 },
    cost: {},
    create: () => defineProvider({ definition, run: async ({ request }) => answer(request) }),
  }
  return definition
}
