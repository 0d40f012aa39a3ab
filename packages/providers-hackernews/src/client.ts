import { type Env, type Provider, defineProvider } from '@search-layer/core'
import { requestJson } from '@search-layer/core/http'
import { hackernewsService } from './service.js'
import {
  type HackerNewsSort,
  buildHackerNewsQuery,
  hackerNewsEndpoint,
  mapHackerNewsError,
  mapHackerNewsResults,
} from './map.js'
import { HackerNewsSearchResponseSchema } from './schema.js'

/** Options of `createHackerNewsProvider`; every field is optional and the base URL is read at call time. */
export interface HackerNewsProviderOptions {
  /** Base URL (default `https://hn.algolia.com/api/v1`, or `HN_API_URL`); `/search` or `/search_by_date` is appended. */
  baseUrl?: string
  /** Force relevance or newest-first; by default newest-first when the request asks for the last day or week. */
  sort?: HackerNewsSort
  /** Algolia `tags` filter. Default `story` (comments and polls are left out). */
  tags?: string
  /** Time allowed per attempt (ms). Default 8000. */
  timeoutMs?: number
  /** Retries after the first attempt for retryable failures. Default 2 (core's default). */
  retries?: number
  /** Where the base URL is read from when the call context has no `env`; default `process.env`. */
  env?: Env
  /** Largest response accepted (bytes). Default 2 MiB. */
  maxBytes?: number
}

const DEFAULT_MAX_BYTES = 2 * 1024 * 1024

/**
 * Creates the Hacker News provider (Algolia's HN Search API, no key). `search()` rejects only with `ProviderError`
 * (`config`, `rate_limited`, `timeout`, `network`, `upstream`, `bad_response`).
 */
export function createHackerNewsProvider(options: HackerNewsProviderOptions = {}): Provider {
  const { timeoutMs = 8000, maxBytes = DEFAULT_MAX_BYTES } = options
  return defineProvider({
    definition: hackernewsService,
    overrides: { baseUrl: options.baseUrl },
    env: options.env,
    async run({ request, service, http, now }) {
      const endpoint = hackerNewsEndpoint(request, options.sort)
      const response = await requestJson({
        ...http,
        service: 'hackernews',
        url: `${service.baseUrl}/${endpoint}`,
        method: 'GET',
        query: { ...buildHackerNewsQuery(request, now, options.tags) },
        schema: HackerNewsSearchResponseSchema,
        timeoutMs,
        maxBytes,
        ...(options.retries !== undefined && { retries: options.retries }),
        mapError: mapHackerNewsError,
      })
      const { results, dropped } = mapHackerNewsResults(response.data, request)
      return { results, dropped, cost: { usd: 0, basis: 'estimated' } }
    },
  })
}
