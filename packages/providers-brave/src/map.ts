import type { ParsedProviderRequest, SearchResult } from '@search-layer/core'
import { collectResults, isoDate, parseResponseShape, plainText, queryWithOperators } from '@search-layer/core'
import { type BraveSearchResponse, BraveSearchResponseSchema, BraveWebResultSchema } from './schema.js'
import type { BraveSearchQuery } from './request-schema.js'

/** Brave returns at most this many web results per page. */
const BRAVE_MAX_COUNT = 20
/** Brave rejects longer queries with a 422. */
const BRAVE_MAX_QUERY_CHARS = 400
/** Brave rejects queries of more words with a 422. */
const BRAVE_MAX_QUERY_WORDS = 50

// From Brave's "Codes" page (search_lang). Brave uses its own tags: `jp`, not `ja`; script/region variants for zh/pt/en.
const BRAVE_LANGUAGES = new Set([
  'ar',
  'eu',
  'bn',
  'bg',
  'ca',
  'zh-hans',
  'zh-hant',
  'hr',
  'cs',
  'da',
  'nl',
  'en',
  'en-gb',
  'et',
  'fi',
  'fr',
  'gl',
  'de',
  'gu',
  'he',
  'hi',
  'hu',
  'is',
  'it',
  'jp',
  'kn',
  'ko',
  'lv',
  'lt',
  'ms',
  'ml',
  'mr',
  'nb',
  'pl',
  'pt-br',
  'pt-pt',
  'pa',
  'ro',
  'ru',
  'sr',
  'sk',
  'sl',
  'es',
  'sv',
  'ta',
  'te',
  'th',
  'tr',
  'uk',
  'vi',
])

// From Brave's "Codes" page (country). Anything else is a 422, so unknown countries are dropped instead.
const BRAVE_COUNTRIES = new Set([
  'AR',
  'AU',
  'AT',
  'BE',
  'BR',
  'CA',
  'CL',
  'DK',
  'FI',
  'FR',
  'DE',
  'HK',
  'IN',
  'ID',
  'IT',
  'JP',
  'KR',
  'MY',
  'MX',
  'NL',
  'NZ',
  'NO',
  'CN',
  'PL',
  'PT',
  'PH',
  'RU',
  'SA',
  'ZA',
  'ES',
  'SE',
  'CH',
  'TW',
  'TR',
  'GB',
  'US',
])

/** Maps a BCP 47 tag to Brave's `search_lang` code (`ja` → `jp`, `zh-TW` → `zh-hant`…); undefined when Brave has none. */
export function toBraveLanguage(tag: string | undefined): string | undefined {
  if (!tag) return undefined
  const lower = tag.trim().toLowerCase().replace(/_/g, '-')
  const parts = lower.split('-')
  const primary = parts[0] ?? ''
  const rest = parts.slice(1)
  if (primary === 'zh') {
    if (rest.includes('hant') || rest.some((p) => p === 'tw' || p === 'hk' || p === 'mo')) return 'zh-hant'
    return 'zh-hans'
  }
  if (primary === 'ja' || primary === 'jp') return 'jp'
  // A bare `pt` is European Portuguese in BCP 47; only an explicit BR region selects Brave's `pt-br`.
  if (primary === 'pt') return rest.includes('br') ? 'pt-br' : 'pt-pt'
  if (primary === 'en') return rest.includes('gb') || rest.includes('uk') ? 'en-gb' : 'en'
  if (primary === 'no' || primary === 'nn' || primary === 'nb') return 'nb'
  if (primary === 'iw') return 'he'
  if (BRAVE_LANGUAGES.has(lower)) return lower
  return BRAVE_LANGUAGES.has(primary) ? primary : undefined
}

/** Maps an ISO 3166-1 alpha-2 code to Brave's `country` (`uk` → `GB`); undefined when Brave does not support it. */
export function toBraveCountry(code: string | undefined): string | undefined {
  if (!code) return undefined
  const upper = code.trim().toUpperCase()
  const mapped = upper === 'UK' ? 'GB' : upper
  return BRAVE_COUNTRIES.has(mapped) ? mapped : undefined
}

/** Brave's `freshness` value: `pd`/`pw`/`pm`/`py` as is, a range as `YYYY-MM-DDtoYYYY-MM-DD`. */
function toBraveFreshness(freshness: ParsedProviderRequest['freshness']): string | undefined {
  if (freshness === undefined) return undefined
  return typeof freshness === 'string' ? freshness : `${freshness.from}to${freshness.to}`
}

function limitWords(text: string, maxWords: number): string {
  const words = text.trim().split(/\s+/)
  return words.length > maxWords ? words.slice(0, maxWords).join(' ') : text.trim()
}

/**
 * The `q` value: the query with its phrases quoted, `-term`s and `filetype:`s, plus `site:` operators for domain
 * filters (Brave has no domain parameters), kept within Brave's 400-character / 50-word limit. Operators that would not fit are left out and the
 * filter is applied to the results instead.
 */
export function buildBraveQueryText(
  request: Pick<
    ParsedProviderRequest,
    'query' | 'includeDomains' | 'excludeDomains' | 'phrases' | 'excludeTerms' | 'fileTypes'
  >,
): string {
  const include = request.includeDomains ?? []
  const exclude = request.excludeDomains ?? []
  const ops: string[] = []
  if (include.length === 1) ops.push(`site:${include[0]}`)
  else if (include.length > 1) ops.push(`(${include.map((d) => `site:${d}`).join(' OR ')})`)
  for (const d of exclude) ops.push(`-site:${d}`)
  const opText = ops.join(' ')
  const opWords = opText ? opText.split(/\s+/).length : 0
  const base = limitWords(queryWithOperators(request), BRAVE_MAX_QUERY_WORDS)
  const withOps = opText ? `${base} ${opText}` : base
  if (withOps.length <= BRAVE_MAX_QUERY_CHARS && opWords + base.split(/\s+/).length <= BRAVE_MAX_QUERY_WORDS)
    return withOps
  return base.slice(0, BRAVE_MAX_QUERY_CHARS).trim()
}

/** Vendor options that shape the query string. */
export interface BraveQueryOptions {
  safesearch?: 'off' | 'moderate' | 'strict'
  extraSnippets?: boolean
}

/** The query string for `GET /res/v1/web/search`. Pure. */
export function buildBraveQuery(request: ParsedProviderRequest, options: BraveQueryOptions = {}): BraveSearchQuery {
  const freshness = toBraveFreshness(request.freshness)
  const country = toBraveCountry(request.country)
  const searchLang = toBraveLanguage(request.language)
  return {
    q: buildBraveQueryText(request),
    // NOTE(brave): `count` is capped at 20; `offset` is a page index, not a result index, so it is never needed here.
    count: Math.min(Math.max(1, request.num), BRAVE_MAX_COUNT),
    text_decorations: false,
    extra_snippets: options.extraSnippets ?? true,
    safesearch: options.safesearch ?? 'moderate',
    ...(freshness !== undefined && { freshness }),
    ...(country !== undefined && { country }),
    ...(searchLang !== undefined && { search_lang: searchLang }),
  }
}

/** Validates a response body against `BraveSearchResponseSchema`. Throws `ProviderError` (`bad_response`). */
export function parseBraveResponse(body: unknown): BraveSearchResponse {
  return parseResponseShape('brave', BraveSearchResponseSchema, body)
}

/** Normalised results plus how many entries had no usable URL. */
export interface MappedResults {
  results: SearchResult[]
  dropped: number
}

/** Normalises Brave's `web.results` into `SearchResult`s (rank = position in Brave's list). Pure; never throws. */
export function mapBraveResults(
  response: BraveSearchResponse,
  request: Pick<ParsedProviderRequest, 'num' | 'includeDomains' | 'excludeDomains'>,
): MappedResults {
  // Brave's `site:` operators are best-effort; the filters are enforced on what comes back as well.
  return collectResults(
    response.web?.results ?? [],
    BraveWebResultSchema,
    (item, { url, hostname, rank }) => {
      const extraSnippets = (item.extra_snippets ?? []).map(plainText).filter((s) => s.length > 0)
      const description = plainText(item.description)
      const extra: Record<string, unknown> = {}
      if (extraSnippets.length > 0) extra.extraSnippets = extraSnippets
      if (item.age) extra.age = item.age
      if (item.language) extra.language = item.language
      if (item.profile?.name) extra.siteName = plainText(item.profile.name)
      if (item.meta_url?.favicon) extra.favicon = item.meta_url.favicon
      return {
        title: plainText(item.title) || hostname,
        url,
        snippet: description || extraSnippets[0] || '',
        publishedAt: isoDate(item.page_age),
        provider: 'brave',
        rank,
        ...(Object.keys(extra).length > 0 && { extra }),
      }
    },
    { filters: request, limit: request.num },
  )
}
