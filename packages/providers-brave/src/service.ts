import type { ServiceSpec } from '@search-layer/core/config'

/**
 * What config resolution reads for Brave: its id, variables and default URL. The definition is built on it and the
 * client resolves its settings against it, so neither imports the other.
 */
export const braveService = {
  id: 'brave',
  env: { apiKey: ['BRAVE_API_KEY'], baseUrl: 'BRAVE_API_URL' },
  defaultBaseUrl: 'https://api.search.brave.com',
} satisfies ServiceSpec & { keyless?: boolean }
