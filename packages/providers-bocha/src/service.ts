import type { ServiceSpec } from '@search-layer/core/config'

/**
 * What config resolution reads for Bocha: its id, variables and default URL. The definition is built on it and the
 * client resolves its settings against it, so neither imports the other.
 */
export const bochaService = {
  id: 'bocha',
  env: { apiKey: ['BOCHA_API_KEY'], baseUrl: 'BOCHA_API_URL' },
  defaultBaseUrl: 'https://api.bochaai.com/v1',
} satisfies ServiceSpec & { keyless?: boolean }
