import type { ServiceSpec } from '@search-layer/core/config'

/**
 * What config resolution reads for GitHub: its id, variables and default URL. The definition is built on it and the
 * client resolves its settings against it, so neither imports the other.
 */
export const githubService = {
  id: 'github',
  // Same variables as thread-fetch's GitHub access: one token serves both.
  env: { apiKey: ['GITHUB_TOKEN', 'GH_TOKEN'], baseUrl: 'GITHUB_API_URL' },
  defaultBaseUrl: 'https://api.github.com',
  keyless: true,
} satisfies ServiceSpec & { keyless?: boolean }
