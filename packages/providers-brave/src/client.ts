import { type Env, type Provider, defineProvider } from '@search-layer/core'
import { requestJson } from '@search-layer/core/http'
import { mapBraveError, parseBraveRateLimit } from './errors.js'
import { buildBraveQuery, mapBraveResults } from './map.js'
import { BraveSearchResponseSchema } from './schema.js'
import { braveService } from './service.js'

/** Options of `createBraveProvider`; every field is optional and keys/URLs are read at call time. */
export interface BraveProviderOptions {
  /** Subscription token; wins over `BRAVE_API_KEY` and config files. */
  apiKey?: string
  /** Base URL (default `https://api.search.brave.com`, or `BRAVE_API_URL`); `/res/v1/web/search` is appended. */
  baseUrl?: string
  /** Time allowed per attempt (ms). Default 8000. */
  timeoutMs?: number
  /** Retries after the first attempt for retryable failures. Default 2 (core's default). */
  retries?: number
  /** Where keys are read from when the call context has no `env`; default `process.env`. */
  env?: Env
  /** Brave's `safesearch`. Default `moderate`. */
  safesearch?: 'off' | 'moderate' | 'strict'
  /** Ask for up to five extra excerpts per result (`extra_snippets`). Default true. */
  extraSnippets?: boolean
  /** Price of one request used for the cost estimate (Brave bills per request, not per result). Default 0.005 USD. */
  costPerRequestUsd?: number
  /** Largest response accepted (bytes). Default 2 MiB. */
  maxBytes?: number
}

const SEARCH_PATH = '/res/v1/web/search'
const DEFAULT_MAX_BYTES = 2 * 1024 * 1024

/**
 * Creates the Brave Web Search provider. `search()` rejects only with `ProviderError`
 * (`config`, `auth`, `quota`, `rate_limited`, `timeout`, `network`, `upstream`, `bad_response`).
 */
export function createBraveProvider(options: BraveProviderOptions = {}): Provider {
  const { timeoutMs = 8000, costPerRequestUsd = 0.005, maxBytes = DEFAULT_MAX_BYTES } = options
  return defineProvider({
    definition: braveService,
    overrides: { apiKey: options.apiKey, baseUrl: options.baseUrl },
    env: options.env,
    async run({ request, apiKey, service, now, http }) {
      const response = await requestJson({
        ...http,
        service: 'brave',
        url: `${service.baseUrl}${SEARCH_PATH}`,
        method: 'GET',
        query: buildBraveQuery(request, { safesearch: options.safesearch, extraSnippets: options.extraSnippets }),
        headers: { 'x-subscription-token': apiKey, 'accept-encoding': 'identity' },
        schema: BraveSearchResponseSchema,
        timeoutMs,
        maxBytes,
        ...(options.retries !== undefined && { retries: options.retries }),
        mapError: (res) => mapBraveError(res, [apiKey]),
      })
      const { results, dropped } = mapBraveResults(response.data, request)
      const rateLimit = parseBraveRateLimit(response.headers, now.getTime())
      return {
        results,
        dropped,
        cost: { usd: costPerRequestUsd, credits: 1, basis: 'estimated' },
        ...(rateLimit && { rateLimit }),
      }
    },
  })
}
