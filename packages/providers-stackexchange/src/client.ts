import { type Provider, type ProviderCreateOptions, defineProvider } from '@search-layer/core'
import { createSelfThrottle, requestJson } from '@search-layer/core/http'
import { stackexchangeService } from './service.js'
import {
  buildStackExchangeQuery,
  mapStackExchangeError,
  mapStackExchangeResults,
  stackExchangeRateLimit,
} from './map.js'
import { StackExchangeResponseSchema } from './schema.js'

/**
 * Options of `createStackExchangeProvider`: core's `ProviderCreateOptions` (`timeoutMs` default 8000, `retries`
 * core's default 2, `env` default `process.env`) plus Stack Exchange's own. Every field is optional; the key and
 * URL are read at call time.
 */
export interface StackExchangeProviderOptions extends ProviderCreateOptions {
  /** App key; wins over `STACKEXCHANGE_KEY`. Optional: it raises the daily quota from 300 to 10 000 requests. */
  key?: string
  /** Base URL (default `https://api.stackexchange.com/2.3`, or `STACKEXCHANGE_API_URL`). */
  baseUrl?: string
  /** The Stack Exchange site. Default `stackoverflow`. */
  site?: string
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
  const throttle = createSelfThrottle({
    provider: 'stackexchange',
    code: 'backoff',
    reason: 'asked to back off',
    clock,
  })
  return defineProvider({
    definition: stackexchangeService,
    overrides: { apiKey: options.key, baseUrl: options.baseUrl },
    env: options.env,
    async run({ request, apiKey, service, http, now }) {
      throttle.check()
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
      throttle.hold((response.data.backoff ?? 0) * 1000)
      const { results, dropped } = mapStackExchangeResults(response.data, request)
      const rateLimit = stackExchangeRateLimit(response.data, now)
      return { results, dropped, cost: { usd: 0, basis: 'estimated' }, ...(rateLimit && { rateLimit }) }
    },
  })
}
