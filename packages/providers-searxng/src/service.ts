import type { ServiceSpec } from '@search-layer/core/config'

/**
 * What config resolution reads for SearXNG: its id, variables and default URL. The definition is built on it and the
 * client resolves its settings against it, so neither imports the other.
 */
export const searxngService = {
  id: 'searxng',
  // No key: the instance URL is what must be set, so it is listed where the key would be (and names the variable
  // in "not configured" messages).
  env: { apiKey: ['SEARXNG_URL'], baseUrl: 'SEARXNG_URL' },
  // SearXNG's own default address; only used when the URL comes from a config file's `apiKey`.
  defaultBaseUrl: 'http://localhost:8080',
} satisfies ServiceSpec & { keyless?: boolean }
