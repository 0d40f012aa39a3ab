import { type Env, type Provider, defineProvider } from '@search-layer/core'
import { requestJson } from '@search-layer/core/http'
import { type ExaContents, buildExaRequest, exaCost, mapExaError, mapExaResults, parseExaRateLimit } from './map.js'
import { ExaSearchResponseSchema } from './schema.js'
import type { ExaSearchType } from './request-schema.js'
import { exaService } from './service.js'

/** Options of `createExaProvider`; every field is optional and keys/URLs are read at call time. */
export interface ExaProviderOptions {
  /** API key; wins over `EXA_API_KEY` and config files. */
  apiKey?: string
  /** Base URL (default `https://api.exa.ai`, or `EXA_API_URL`); `/search` is appended. */
  baseUrl?: string
  /** Time allowed per attempt (ms). Default 8000. */
  timeoutMs?: number
  /** Retries after the first attempt for retryable failures. Default 2 (core's default). */
  retries?: number
  /** Where keys are read from when the call context has no `env`; default `process.env`. */
  env?: Env
  /** Exa's search `type`. Default `auto`. */
  type?: ExaSearchType
  /** Which contents to request for snippets. Default `highlights+text`. */
  contents?: ExaContents
  /** Cap on highlight and text characters requested per result. Default 1000. */
  maxCharacters?: number
  /** Longest snippet built from page text when there are no highlights. Default 500. */
  snippetMaxChars?: number
  /** Exa's `category` filter (`news`, `research paper`, `company`, `pdf`…). */
  category?: string
  /** Largest response accepted (bytes). Default 5 MiB. */
  maxBytes?: number
}

const SEARCH_PATH = '/search'

/**
 * Creates the Exa search provider. `search()` rejects only with `ProviderError`
 * (`config`, `auth`, `quota`, `rate_limited`, `timeout`, `network`, `upstream`, `bad_response`).
 */
export function createExaProvider(options: ExaProviderOptions = {}): Provider {
  const { timeoutMs = 8000, snippetMaxChars = 500 } = options
  return defineProvider({
    definition: exaService,
    overrides: { apiKey: options.apiKey, baseUrl: options.baseUrl },
    env: options.env,
    async run({ request, apiKey, service, now, http }) {
      const body = buildExaRequest(request, {
        type: options.type,
        contents: options.contents,
        maxCharacters: options.maxCharacters,
        category: options.category,
        now,
      })
      const response = await requestJson({
        ...http,
        service: 'exa',
        url: `${service.baseUrl}${SEARCH_PATH}`,
        method: 'POST',
        json: body,
        headers: { 'x-api-key': apiKey, 'accept-encoding': 'identity' },
        schema: ExaSearchResponseSchema,
        timeoutMs,
        ...(options.maxBytes !== undefined && { maxBytes: options.maxBytes }),
        ...(options.retries !== undefined && { retries: options.retries }),
        mapError: (res) => mapExaError(res, [apiKey]),
      })
      const { results, dropped } = mapExaResults(response.data, request, snippetMaxChars)
      const cost = exaCost(response.data)
      const rateLimit = parseExaRateLimit(response.headers, now.getTime())
      return { results, dropped, ...(cost && { cost }), ...(rateLimit && { rateLimit }) }
    },
  })
}
