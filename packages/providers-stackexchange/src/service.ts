import type { ServiceSpec } from '@search-layer/core/config'

/**
 * What config resolution reads for Stack Exchange: its id, variables and default URL. The definition is built on it and the
 * client resolves its settings against it, so neither imports the other.
 */
export const stackexchangeService = {
  id: 'stackexchange',
  env: { apiKey: ['STACKEXCHANGE_KEY'], baseUrl: 'STACKEXCHANGE_API_URL' },
  defaultBaseUrl: 'https://api.stackexchange.com/2.3',
  keyless: true,
} satisfies ServiceSpec & { keyless?: boolean }
