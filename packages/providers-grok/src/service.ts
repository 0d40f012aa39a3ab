import type { ServiceSpec } from '@search-layer/core/config'

/**
 * The model used when neither `model` nor `GROK_MODEL` is set: a current xAI model with server-side web search.
 * (`grok-4-fast*` and `grok-4-1-fast*` were retired on 2026-05-15; xAI names `grok-4.3` as their replacement.)
 */
export const GROK_DEFAULT_MODEL = 'grok-4.3'

/**
 * What config resolution reads for Grok: its id, variables and default URL. The definition is built on it and the
 * client resolves its settings against it, so neither imports the other.
 */
export const grokService = {
  id: 'grok',
  env: { apiKey: ['XAI_API_KEY', 'GROK_API_KEY'], baseUrl: 'GROK_API_URL', model: 'GROK_MODEL' },
  defaultBaseUrl: 'https://api.x.ai/v1',
  defaultModel: GROK_DEFAULT_MODEL,
} satisfies ServiceSpec & { keyless?: boolean }
