import {
  type ParsedProviderRequest,
  ProviderError,
  type SearchResult,
  collectResults,
  isoDate,
  plainText,
  queryWithOperators,
  safeParseJson,
} from '@search-layer/core'
import { type HttpErrorResponse, parseRetryAfter, retryHint } from '@search-layer/core/http'
import { cjkLanguage } from '@search-layer/core/text'
import { z } from 'zod'
import { type WikipediaApiError, WikipediaSearchHitSchema, type WikipediaSearchResponse } from './schema.js'

/** The query string of one `GET /w/api.php` search. */
export interface WikipediaQuery {
  action: 'query'
  list: 'search'
  srsearch: string
  srlimit: number
  srnamespace: 0
  srprop: string
  srinfo: string
  format: 'json'
  formatversion: 2
  utf8: 1
}

/** More than 50 articles per query is never useful here (the API allows 500). */
const WIKIPEDIA_MAX_RESULTS = 50

// Scripts that name one Wikipedia, after the CJK ones (core's `cjkLanguage`: kana, then Hangul, then Han).
const SCRIPT_WIKIS: readonly [RegExp, string][] = [
  [/[\u0400-\u04ff]/, 'ru'],
  [/[\u0600-\u06ff]/, 'ar'],
  [/[\u0590-\u05ff]/, 'he'],
  [/[\u0370-\u03ff]/, 'el'],
  [/[\u0e00-\u0e7f]/, 'th'],
  [/[\u0900-\u097f]/, 'hi'],
]
// BCP 47 primary subtags whose Wikipedia has another code.
const WIKI_CODES: Readonly<Record<string, string>> = { iw: 'he', nb: 'no', ji: 'yi', in: 'id' }

/**
 * The wikis to search, by language code: `language`'s primary subtag when given, else the query's script, else `en`.
 * Chinese also searches English Wikipedia, which covers much of what Chinese queries ask about technically.
 */
export function wikipediaLanguages(request: Pick<ParsedProviderRequest, 'query' | 'language'>): string[] {
  const primary = request.language?.toLowerCase().split(/[-_]/)[0]
  const fromTag = primary && /^[a-z]{2,3}$/.test(primary) ? (WIKI_CODES[primary] ?? primary) : undefined
  const lang = fromTag ?? scriptWiki(request.query)
  return lang === 'zh' ? ['zh', 'en'] : [lang]
}

/** The wiki a query's script names; `en` for Latin script and scripts without a row. */
function scriptWiki(query: string): string {
  return cjkLanguage(query) ?? SCRIPT_WIKIS.find(([script]) => script.test(query))?.[1] ?? 'en'
}

/** The base URL of one language's wiki: `{lang}` in the configured base is replaced. */
export function wikipediaBaseUrl(configured: string, lang: string): string {
  return configured.replaceAll('{lang}', lang)
}

/** The article's URL from its title: `Queens (band)` → `{base}/wiki/Queens_(band)`. */
export function wikipediaArticleUrl(base: string, title: string): string {
  const path = encodeURIComponent(title.trim().replace(/ /g, '_'))
    .replace(/%2F/g, '/')
    .replace(/%3A/g, ':')
    .replace(/%2C/g, ',')
  return `${base}/wiki/${path}`
}

/**
 * The search's query string: articles only (namespace 0), snippet, last edit and word count. Phrases go quoted and
 * excluded terms as `-term` (CirrusSearch reads both).
 */
export function buildWikipediaQuery(
  request: Pick<ParsedProviderRequest, 'query' | 'num' | 'phrases' | 'excludeTerms'>,
): WikipediaQuery {
  return {
    action: 'query',
    list: 'search',
    srsearch: queryWithOperators({
      query: request.query,
      phrases: request.phrases,
      excludeTerms: request.excludeTerms,
    }),
    srlimit: Math.min(request.num, WIKIPEDIA_MAX_RESULTS),
    srnamespace: 0,
    srprop: 'snippet|timestamp|wordcount',
    srinfo: 'totalhits|suggestion',
    format: 'json',
    formatversion: 2,
    utf8: 1,
  }
}

const HitWithUrlSchema = WikipediaSearchHitSchema.extend({ url: z.string() })

/** Normalised results plus how many hits were unusable. */
export interface MappedResults {
  results: SearchResult[]
  dropped: number
}

/**
 * Maps one wiki's hits: article URL from the title on that wiki, `searchmatch` spans and entities removed from the
 * snippet, `publishedAt` = last edit. Throws the API's own error (sent with HTTP 200) as a `ProviderError`.
 */
export function mapWikipediaResults(
  response: WikipediaSearchResponse,
  wiki: { base: string; lang: string },
  request: Pick<ParsedProviderRequest, 'num' | 'includeDomains' | 'excludeDomains'>,
  headers: Readonly<Record<string, string>> = {},
): MappedResults {
  if (response.error) throw wikipediaApiError(response.error, headers)
  if (!response.query)
    throw new ProviderError('wikipedia answered without `query` or `error`', {
      kind: 'bad_response',
      provider: 'wikipedia',
    })
  const hits = response.query.search.map((hit) => {
    const parsed = safeParseJson(WikipediaSearchHitSchema, hit)
    return parsed.success ? { ...parsed.data, url: wikipediaArticleUrl(wiki.base, parsed.data.title) } : hit
  })
  return collectResults(
    hits,
    HitWithUrlSchema,
    (hit, { url, rank }) => {
      const extra: Record<string, unknown> = { language: wiki.lang }
      if (typeof hit.pageid === 'number') extra.pageId = hit.pageid
      if (typeof hit.wordcount === 'number') extra.wordCount = hit.wordcount
      return {
        title: plainText(hit.title),
        url,
        snippet: plainText(hit.snippet),
        publishedAt: isoDate(hit.timestamp),
        provider: 'wikipedia',
        rank,
        extra,
      }
    },
    { filters: request, limit: request.num },
  )
}

// https://www.mediawiki.org/wiki/API:Errors_and_warnings#Standard_error_messages
const RATE_CODES = new Set(['maxlag', 'ratelimited', 'actionthrottledtext'])
const AUTH_CODES = new Set(['readapidenied', 'mwoauth-invalid-authorization', 'blocked', 'autoblocked'])

/** An Action API error (HTTP 200): lag and throttling are `rate_limited`, read denials `auth`, the rest `upstream`. */
export function wikipediaApiError(
  error: WikipediaApiError,
  headers: Readonly<Record<string, string>> = {},
): ProviderError {
  const info = plainText(error.info)
  const detail = `${error.code}${info ? `: ${info}` : ''}`
  if (RATE_CODES.has(error.code)) {
    const retryAfterMs = parseRetryAfter(headers['retry-after'])
    return new ProviderError(`wikipedia is busy (${detail})${retryHint(retryAfterMs)}`, {
      kind: 'rate_limited',
      provider: 'wikipedia',
      code: error.code,
      retryAfterMs,
    })
  }
  if (AUTH_CODES.has(error.code))
    return new ProviderError(`wikipedia refused to read (${detail})`, {
      kind: 'auth',
      provider: 'wikipedia',
      code: error.code,
    })
  return new ProviderError(`wikipedia rejected the search (${detail})`, {
    kind: 'upstream',
    provider: 'wikipedia',
    code: error.code,
    retryable: error.code.startsWith('internal_api_error'),
  })
}

/**
 * HTTP errors from Wikimedia's edge: 429 is `rate_limited`; 403 is a block (commonly a missing or generic
 * User-Agent), not a key problem; the rest falls back to the status-based default (undefined).
 */
export function mapWikipediaHttpError(response: HttpErrorResponse): ProviderError | undefined {
  if (response.status === 429)
    return new ProviderError(`wikipedia rate limit hit (HTTP 429)${retryHint(response.retryAfterMs)}`, {
      kind: 'rate_limited',
      provider: 'wikipedia',
      status: 429,
      retryAfterMs: response.retryAfterMs,
    })
  if (response.status === 403)
    return new ProviderError(
      'wikipedia refused the request (HTTP 403): Wikimedia blocks clients without a descriptive User-Agent (https://meta.wikimedia.org/wiki/User-Agent_policy); set the userAgent option',
      { kind: 'upstream', provider: 'wikipedia', status: 403, retryable: false },
    )
  return undefined
}
