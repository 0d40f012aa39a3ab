import {
  DEFAULT_MAX_KEY_REST_MS,
  type Env,
  type Provider,
  ProviderError,
  defineProvider,
  requestJson,
  upstreamWaitMs,
} from '@search-layer/core'
import { stackexchangeDefinition } from './definition.js'
import {
  buildStackExchangeQuery,
  mapStackExchangeError,
  mapStackExchangeResults,
  stackExchangeRateLimit,
} from './map.js'
import { StackExchangeResponseSchema } from './schema.js'

/** Options of `createStackExchangeProvider`; every field is optional and the key/URL are read at call time. */
export interface StackExchangeProviderOptions {
  /** App key; wins over `STACKEXCHANGE_KEY`. Optional: it raises the daily quota from 300 to 10 000 requests. */
  key?: string
  /** Base URL (default `https://api.stackexchange.com/2.3`, or `STACKEXCHANGE_API_URL`). */
  baseUrl?: string
  /** The Stack Exchange site. Default `stackoverflow`. */
  site?: string
  /** Time allowed per attempt (ms). Default 8000. */
  timeoutMs?: number
  /** Retries after the first attempt for retryable failures. Default 2 (core's default). */
  retries?: number
  /** Where the key is read from when the call context has no `env`; default `process.env`. */
  env?: Env
  /** Largest response accepted (bytes, after decompression). Default 2 MiB. */
  maxBytes?: number
  /** The clock `backoff` is measured with; default `Date.now`. */
  clock?: () => number
}

const DEFAULT_MAX_BYTES = 2 * 1024 * 1024

/**
 * Creates the Stack Overflow provider (Stack Exchange API 2.3 `search/advanced`). Honours `backoff`: until it has
 * passed, calls are refused as `rate_limited` without reaching the API. `search()` rejects only with
 * `ProviderError` (`config`, `auth`, `quota`, `rate_limited`, `timeout`, `network`, `upstream`, `bad_response`).
 */
export function createStackExchangeProvider(options: StackExchangeProviderOptions = {}): Provider {
  const { timeoutMs = 8000, maxBytes = DEFAULT_MAX_BYTES, clock = Date.now } = options
  // NOTE(stackexchange): "a consumer must wait `backoff` seconds before hitting the same method again".
  let backoffUntil = 0
  return defineProvider({
    definition: stackexchangeDefinition,
    overrides: { apiKey: options.key, baseUrl: options.baseUrl },
    env: options.env,
    async run({ request, apiKey, service, http, now }) {
      const waitMs = backoffUntil - clock()
      if (waitMs > 0)
        throw new ProviderError(`stackexchange asked to back off; retry after ${Math.ceil(waitMs / 1000)}s`, {
          kind: 'rate_limited',
          provider: 'stackexchange',
          code: 'backoff',
          retryAfterMs: waitMs,
        })
      const response = await requestJson({
        ...http,
        service: 'stackexchange',
        url: `${service.baseUrl}/search/advanced`,
        method: 'GET',
        query: { ...buildStackExchangeQuery(request, { now, site: options.site, key: apiKey || undefined }) },
        // The API compresses every answer; core decodes it.
        headers: { 'accept-encoding': 'gzip' },
        schema: StackExchangeResponseSchema,
        timeoutMs,
        maxBytes,
        ...(options.retries !== undefined && { retries: options.retries }),
        mapError: (res) => mapStackExchangeError(res, apiKey ? [apiKey] : []),
      })
      // Held to a key's longest default rest; a `backoff` of Infinity or years is ignored (see `upstreamWaitMs`).
      const backoffMs = upstreamWaitMs((response.data.backoff ?? 0) * 1000, DEFAULT_MAX_KEY_REST_MS)
      if (backoffMs !== undefined && backoffMs > 0) backoffUntil = clock() + backoffMs
      const { results, dropped } = mapStackExchangeResults(response.data, request)
      const rateLimit = stackExchangeRateLimit(response.data, now)
      return { results, dropped, cost: { usd: 0, basis: 'estimated' }, ...(rateLimit && { rateLimit }) }
    },
  })
}
