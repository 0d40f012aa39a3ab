import type { ServiceSpec } from '@search-layer/core/config'

/**
 * What config resolution reads for DuckDuckGo: its id, variables and default URL. The definition is built on it and the
 * client resolves its settings against it, so neither imports the other.
 */
export const duckduckgoService = {
  id: 'duckduckgo',
  env: { apiKey: [], baseUrl: 'DUCKDUCKGO_URL' },
  defaultBaseUrl: 'https://html.duckduckgo.com',
  keyless: true,
} satisfies ServiceSpec & { keyless?: boolean }
