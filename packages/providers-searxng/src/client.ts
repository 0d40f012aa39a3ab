import { type Env, type Provider, defineProvider } from '@search-layer/core'
import { requestJson } from '@search-layer/core/http'
import { searxngService } from './service.js'
import { buildSearxngQuery, mapSearxngError, mapSearxngResults } from './map.js'
import { SearxngResponseSchema } from './schema.js'

/** Options of `createSearxngProvider`; every field is optional and the instance URL is read at call time. */
export interface SearxngProviderOptions {
  /** The instance, e.g. `https://searx.example.org` (else `SEARXNG_URL`); `/search` is appended. */
  baseUrl?: string
  /** SearXNG `categories`. Default `general`; `news` for news, `general,news` for both. */
  categories?: string
  /** SearXNG `safesearch` (0 off, 1 moderate, 2 strict); default: the instance's setting. */
  safesearch?: 0 | 1 | 2
  /** Time allowed per attempt (ms). Default 10 000: a metasearch waits for its slowest engine. */
  timeoutMs?: number
  /** Retries after the first attempt for retryable failures. Default 2 (core's default). */
  retries?: number
  /** Where `SEARXNG_URL` is read when the call context has no `env`; default `process.env`. */
  env?: Env
  /** Largest response accepted (bytes). Default 2 MiB. */
  maxBytes?: number
}

const DEFAULT_MAX_BYTES = 2 * 1024 * 1024

/**
 * Creates the SearXNG provider (a self-hosted instance's JSON API). Configured when `SEARXNG_URL` (or `baseUrl`) is
 * set. `search()` rejects only with `ProviderError` (`config`, `rate_limited`, `timeout`, `network`, `upstream`,
 * `bad_response`); a disabled JSON output is `config` naming the settings.yml line to change.
 */
export function createSearxngProvider(options: SearxngProviderOptions = {}): Provider {
  const { timeoutMs = 10_000, maxBytes = DEFAULT_MAX_BYTES } = options
  return defineProvider({
    definition: searxngService,
    // NOTE(searxng): the instance URL is what "configured" means here, so it stands in the key's place too.
    overrides: { apiKey: options.baseUrl, baseUrl: options.baseUrl },
    env: options.env,
    async run({ request, apiKey, service, http, now }) {
      const base = (service.baseUrlSource === 'default' ? apiKey : service.baseUrl).replace(/\/+$/, '')
      const response = await requestJson({
        ...http,
        service: 'searxng',
        url: `${base}/search`,
        method: 'GET',
        query: {
          ...buildSearxngQuery(request, { now, categories: options.categories, safesearch: options.safesearch }),
        },
        schema: SearxngResponseSchema,
        timeoutMs,
        maxBytes,
        ...(options.retries !== undefined && { retries: options.retries }),
        mapError: mapSearxngError,
      })
      const { results, dropped } = mapSearxngResults(response.data, request)
      return { results, dropped, cost: { usd: 0, basis: 'estimated' } }
    },
  })
}
