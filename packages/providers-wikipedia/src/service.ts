import type { ServiceSpec } from '@search-layer/core/config'

/**
 * What config resolution reads for Wikipedia: its id, variables and default URL. The definition is built on it and the
 * client resolves its settings against it, so neither imports the other.
 */
export const wikipediaService = {
  id: 'wikipedia',
  env: { apiKey: [], baseUrl: 'WIKIPEDIA_API_URL' },
  // `{lang}` is replaced per call by the wiki's language code.
  defaultBaseUrl: 'https://{lang}.wikipedia.org',
  keyless: true,
} satisfies ServiceSpec & { keyless?: boolean }
