import type { ServiceSpec } from '@search-layer/core/config'

/**
 * What config resolution reads for the example source: its id, key and URL variables, default URL. The definition
 * is built on it and the client resolves its settings against it, so the two never import each other.
 */
export const exampleService = {
  id: 'example',
  env: { apiKey: ['EXAMPLE_SEARCH_API_KEY'], baseUrl: 'EXAMPLE_SEARCH_URL' },
  defaultBaseUrl: 'https://search.example.com/v1',
} satisfies ServiceSpec
