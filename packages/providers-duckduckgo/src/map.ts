import {
  type ParsedProviderRequest,
  ProviderError,
  type SearchResult,
  passesDomainFilters,
  queryWithSiteOperators,
} from '@search-layer/core'
import { type HttpErrorResponse, retryHint } from '@search-layer/core/http'
import type { DuckDuckGoPage } from './parse.js'

/** The form fields of one `/html/` search. */
export interface DuckDuckGoQuery {
  q: string
  kl?: string
  df?: string
}

// DuckDuckGo's region codes (`kl`), from its settings page. `wt-wt` is "no region".
const REGIONS = new Set(
  'xa-ar xa-en ar-es au-en at-de be-fr be-nl br-pt bg-bg ca-en ca-fr ct-ca cl-es cn-zh co-es hr-hr cz-cs dk-da ee-et fi-fi fr-fr de-de gr-el hk-tzh hu-hu in-en id-id id-en ie-en il-he it-it jp-jp kr-kr lv-lv lt-lt xl-es my-ms my-en mx-es nl-nl nz-en no-no pe-es ph-en ph-tl pl-pl pt-pt ro-ro ru-ru sg-en sk-sk sl-sl za-en es-es se-sv ch-de ch-fr ch-it tw-tzh th-th tr-tr ua-uk uk-en us-en ue-es ve-es vn-vi wt-wt'.split(
    ' ',
  ),
)
// A language's home region when no country is given.
const LANGUAGE_REGIONS: Readonly<Record<string, string>> = {
  en: 'us-en',
  zh: 'cn-zh',
  ja: 'jp-jp',
  ko: 'kr-kr',
  de: 'de-de',
  fr: 'fr-fr',
  es: 'es-es',
  it: 'it-it',
  pt: 'pt-pt',
  ru: 'ru-ru',
  nl: 'nl-nl',
  pl: 'pl-pl',
  sv: 'se-sv',
  da: 'dk-da',
  fi: 'fi-fi',
  no: 'no-no',
  nb: 'no-no',
  cs: 'cz-cs',
  el: 'gr-el',
  he: 'il-he',
  tr: 'tr-tr',
  uk: 'ua-uk',
  vi: 'vn-vi',
  th: 'th-th',
  id: 'id-id',
  ar: 'xa-ar',
}
// Languages DuckDuckGo writes its own way in `kl`.
const KL_LANGUAGE: Readonly<Record<string, string>> = { ja: 'jp', ko: 'kr', nb: 'no', iw: 'he' }

/**
 * `kl` from `country` and `language`: `country-language` when DuckDuckGo has that region (GB is `uk`; Chinese in
 * Taiwan and Hong Kong is `tzh`), else the country's first region, else the language's home region; undefined when
 * neither is given or known.
 */
export function duckDuckGoRegion(request: Pick<ParsedProviderRequest, 'language' | 'country'>): string | undefined {
  const [primary, ...subtags] = (request.language ?? '').toLowerCase().split(/[-_]/)
  const lang = primary ? (KL_LANGUAGE[primary] ?? primary) : ''
  const regionTag = subtags.find((t) => /^[a-z]{2}$/.test(t))
  const country = (request.country ?? regionTag)?.toLowerCase()
  if (country) {
    const c = country === 'gb' ? 'uk' : country
    const traditional = lang === 'zh' && (c === 'tw' || c === 'hk' || subtags.includes('hant'))
    const exact = `${c}-${traditional ? 'tzh' : lang}`
    if (lang && REGIONS.has(exact)) return exact
    const first = [...REGIONS].find((r) => r.startsWith(`${c}-`))
    if (first) return first
  }
  if (!primary) return undefined
  if (primary === 'zh' && subtags.some((t) => t === 'hant' || t === 'tw' || t === 'hk')) return 'tw-tzh'
  return LANGUAGE_REGIONS[primary]
}

/** `df`: `d`/`w`/`m`/`y`, or `YYYY-MM-DD..YYYY-MM-DD` for an explicit range. */
function duckDuckGoDateFilter(freshness: ParsedProviderRequest['freshness']): string | undefined {
  if (freshness === undefined) return undefined
  if (typeof freshness === 'object') return `${freshness.from}..${freshness.to}`
  return ({ pd: 'd', pw: 'w', pm: 'm', py: 'y' } as const)[freshness]
}

/**
 * The query text with its phrases quoted, `-term`s and `filetype:`s, and domain filters as `site:` operators
 * (DuckDuckGo has no parameters for any of them).
 */
function duckDuckGoQueryText(
  request: Pick<
    ParsedProviderRequest,
    'query' | 'includeDomains' | 'excludeDomains' | 'phrases' | 'excludeTerms' | 'fileTypes'
  >,
): string {
  return queryWithSiteOperators(request)
}

/** The form fields for a request. */
export function buildDuckDuckGoQuery(
  request: Pick<
    ParsedProviderRequest,
    | 'query'
    | 'freshness'
    | 'language'
    | 'country'
    | 'includeDomains'
    | 'excludeDomains'
    | 'phrases'
    | 'excludeTerms'
    | 'fileTypes'
  >,
): DuckDuckGoQuery {
  const kl = duckDuckGoRegion(request)
  const df = duckDuckGoDateFilter(request.freshness)
  return { q: duckDuckGoQueryText(request), ...(kl && { kl }), ...(df && { df }) }
}

/** Results from a parsed page: ranks are positions among organic hits; domain filters enforced; `num` kept. */
export function mapDuckDuckGoResults(
  page: DuckDuckGoPage,
  request: Pick<ParsedProviderRequest, 'num' | 'includeDomains' | 'excludeDomains'>,
): { results: SearchResult[]; dropped: number } {
  const results: SearchResult[] = []
  page.hits.forEach((hit, index) => {
    if (!passesDomainFilters(new URL(hit.url).hostname, request)) return
    results.push({
      title: hit.title,
      url: hit.url,
      snippet: hit.snippet,
      publishedAt: hit.date,
      provider: 'duckduckgo',
      rank: index + 1,
      ...(hit.displayUrl && { extra: { displayUrl: hit.displayUrl } }),
    })
  })
  return { results: results.slice(0, request.num), dropped: page.dropped }
}

// DuckDuckGo gives no Retry-After with its challenge; a minute keeps a shared IP out of its sights.
const CHALLENGE_WAIT_MS = 60_000

/** The bot challenge page: `rate_limited`, never retried, never parsed as results. */
export function duckDuckGoChallengeError(status: number): ProviderError {
  return new ProviderError(
    `duckduckgo answered with its bot challenge ("anomaly") page (HTTP ${status}) instead of results; not retried${retryHint(CHALLENGE_WAIT_MS)}`,
    {
      kind: 'rate_limited',
      provider: 'duckduckgo',
      status,
      code: 'anomaly',
      retryable: false,
      retryAfterMs: CHALLENGE_WAIT_MS,
    },
  )
}

/** HTTP errors: 403 and 429 (blocks) are `rate_limited` and not retried; the rest falls back to the default. */
export function mapDuckDuckGoError(response: HttpErrorResponse): ProviderError | undefined {
  if (response.status === 403 || response.status === 429)
    return new ProviderError(`duckduckgo refused the request (HTTP ${response.status}); not retried`, {
      kind: 'rate_limited',
      provider: 'duckduckgo',
      status: response.status,
      retryable: false,
      retryAfterMs: response.retryAfterMs ?? CHALLENGE_WAIT_MS,
    })
  return undefined
}
