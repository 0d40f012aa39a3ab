import { type Env, type Provider, type ProviderError, defineProvider } from '@search-layer/core'
import { requestJson } from '@search-layer/core/http'
import { wikipediaService } from './service.js'
import {
  type MappedResults,
  buildWikipediaQuery,
  mapWikipediaHttpError,
  mapWikipediaResults,
  wikipediaBaseUrl,
  wikipediaLanguages,
} from './map.js'
import { WikipediaSearchResponseSchema } from './schema.js'

/** Options of `createWikipediaProvider`; every field is optional and the base URL is read at call time. */
export interface WikipediaProviderOptions {
  /** Base URL, `{lang}` replaced by the wiki's language (default `https://{lang}.wikipedia.org`, or `WIKIPEDIA_API_URL`). */
  baseUrl?: string
  /** Sent as `User-Agent`, which Wikimedia requires to identify the client. */
  userAgent?: string
  /** Time allowed per attempt (ms). Default 8000. */
  timeoutMs?: number
  /** Retries after the first attempt for retryable failures. Default 2 (core's default). */
  retries?: number
  /** Where the base URL is read from when the call context has no `env`; default `process.env`. */
  env?: Env
  /** Largest response accepted (bytes). Default 1 MiB. */
  maxBytes?: number
}

const DEFAULT_USER_AGENT = 'search-layer/0.1 (https://www.npmjs.com/package/@search-layer/providers-wikipedia)'
const DEFAULT_MAX_BYTES = 1024 * 1024

/**
 * Creates the Wikipedia provider (MediaWiki's search API, no key). Chinese queries search zh and en Wikipedia and
 * interleave the two. `search()` rejects only with `ProviderError` (`config`, `auth`, `rate_limited`, `timeout`,
 * `network`, `upstream`, `bad_response`).
 */
export function createWikipediaProvider(options: WikipediaProviderOptions = {}): Provider {
  const { timeoutMs = 8000, maxBytes = DEFAULT_MAX_BYTES, userAgent = DEFAULT_USER_AGENT } = options
  return defineProvider({
    definition: wikipediaService,
    overrides: { baseUrl: options.baseUrl },
    env: options.env,
    async run({ request, service, http }) {
      // A base without `{lang}` is one wiki (a mirror, a test server): asking it twice would repeat the answer.
      const languages = service.baseUrl.includes('{lang}')
        ? wikipediaLanguages(request)
        : [wikipediaLanguages(request)[0]!]
      const searchOne = async (lang: string): Promise<MappedResults> => {
        const base = wikipediaBaseUrl(service.baseUrl, lang)
        const response = await requestJson({
          ...http,
          service: 'wikipedia',
          url: `${base}/w/api.php`,
          method: 'GET',
          query: { ...buildWikipediaQuery(request) },
          headers: { 'user-agent': userAgent, 'accept-encoding': 'identity' },
          schema: WikipediaSearchResponseSchema,
          timeoutMs,
          maxBytes,
          ...(options.retries !== undefined && { retries: options.retries }),
          mapError: mapWikipediaHttpError,
        })
        return mapWikipediaResults(response.data, { base, lang }, request, response.headers)
      }
      const settled = await Promise.allSettled(languages.map(searchOne))
      const answers = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []))
      if (answers.length === 0) throw (settled[0] as PromiseRejectedResult).reason as ProviderError
      return { ...interleave(answers, request.num), cost: { usd: 0, basis: 'estimated' } }
    },
  })
}

// zh1, en1, zh2, en2…: each wiki's best articles come first; ranks are positions in the merged list.
function interleave(answers: readonly MappedResults[], limit: number): MappedResults {
  const merged: MappedResults['results'] = []
  const seen = new Set<string>()
  for (let i = 0; merged.length < limit && answers.some((a) => i < a.results.length); i++)
    for (const answer of answers) {
      const result = answer.results[i]
      if (!result || seen.has(result.url) || merged.length >= limit) continue
      seen.add(result.url)
      merged.push({ ...result, rank: merged.length + 1 })
    }
  return { results: merged, dropped: answers.reduce((n, a) => n + a.dropped, 0) }
}
