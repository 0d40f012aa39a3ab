import { type Env, type Provider, defineProvider } from '@search-layer/core'
import { requestJson } from '@search-layer/core/http'
import { bochaService } from './service.js'
import { buildBochaBody, mapBochaError, mapBochaResults } from './map.js'
import { BochaSearchResponseSchema } from './schema.js'

/** Options of `createBochaProvider`; every field is optional and the key/URL are read at call time. */
export interface BochaProviderOptions {
  /** API key; wins over `BOCHA_API_KEY` and config files. */
  apiKey?: string
  /** Base URL (default `https://api.bochaai.com/v1`, or `BOCHA_API_URL`); `/web-search` is appended. */
  baseUrl?: string
  /** Ask for each page's long summary (`summary`), kept in `extra.summary`. Default true. */
  summary?: boolean
  /** Time allowed per attempt (ms). Default 10 000. */
  timeoutMs?: number
  /** Retries after the first attempt for retryable failures. Default 2 (core's default). */
  retries?: number
  /** Where the key is read from when the call context has no `env`; default `process.env`. */
  env?: Env
  /** Price of one call for the cost estimate, when you know your plan's; Bocha bills per call. */
  costPerRequestUsd?: number
  /** Largest response accepted (bytes). Default 4 MiB (summaries are long). */
  maxBytes?: number
}

const DEFAULT_MAX_BYTES = 4 * 1024 * 1024

/**
 * Creates the Bocha Web Search provider. `search()` rejects only with `ProviderError` (`config`, `auth`, `quota`,
 * `rate_limited`, `timeout`, `network`, `upstream`, `bad_response`).
 */
export function createBochaProvider(options: BochaProviderOptions = {}): Provider {
  const { timeoutMs = 10_000, maxBytes = DEFAULT_MAX_BYTES } = options
  return defineProvider({
    definition: bochaService,
    overrides: { apiKey: options.apiKey, baseUrl: options.baseUrl },
    env: options.env,
    async run({ request, apiKey, service, http }) {
      const response = await requestJson({
        ...http,
        service: 'bocha',
        url: `${service.baseUrl}/web-search`,
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}` },
        json: buildBochaBody(request, { summary: options.summary }),
        schema: BochaSearchResponseSchema,
        timeoutMs,
        maxBytes,
        ...(options.retries !== undefined && { retries: options.retries }),
        mapError: (res) => mapBochaError(res, [apiKey]),
      })
      const { results, dropped } = mapBochaResults(response.data, request, [apiKey])
      return {
        results,
        dropped,
        cost: {
          credits: 1,
          basis: 'estimated',
          ...(options.costPerRequestUsd !== undefined && { usd: options.costPerRequestUsd }),
        },
      }
    },
  })
}
