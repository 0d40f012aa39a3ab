import type { ServiceSpec } from '@search-layer/core/config'

/**
 * What config resolution reads for Exa: its id, variables and default URL. The definition is built on it and the
 * client resolves its settings against it, so neither imports the other.
 */
export const exaService = {
  id: 'exa',
  env: { apiKey: ['EXA_API_KEY'], baseUrl: 'EXA_API_URL' },
  defaultBaseUrl: 'https://api.exa.ai',
} satisfies ServiceSpec & { keyless?: boolean }
