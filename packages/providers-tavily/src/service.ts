import type { ServiceSpec } from '@search-layer/core/config'

/**
 * What config resolution reads for Tavily: its id, variables and default URL. The definition is built on it and the
 * client resolves its settings against it, so neither imports the other.
 */
export const tavilyService = {
  id: 'tavily',
  env: { apiKey: ['TAVILY_API_KEY'], baseUrl: 'TAVILY_API_URL' },
  defaultBaseUrl: 'https://api.tavily.com',
} satisfies ServiceSpec & { keyless?: boolean }
