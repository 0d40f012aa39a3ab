import type { ServiceSpec } from '@search-layer/core/config'

/**
 * What config resolution reads for Hacker News: its id, variables and default URL. The definition is built on it and the
 * client resolves its settings against it, so neither imports the other.
 */
export const hackernewsService = {
  id: 'hackernews',
  env: { apiKey: [], baseUrl: 'HN_API_URL' },
  defaultBaseUrl: 'https://hn.algolia.com/api/v1',
  keyless: true,
} satisfies ServiceSpec & { keyless?: boolean }
