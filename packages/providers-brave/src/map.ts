import {
  type ParsedProviderRequest,
  ProviderError,
  type RateLimitInfo,
  type SearchResult,
  type VendorLimits,
  describesKeyRejection,
} from '@search-layer/core'
import { type HttpErrorResponse, resetDelayMs, errorFromStatus } from '@search-layer/core/http'
import { collectResults, isoDate, plainText, queryWithOperators } from '@search-layer/core'
import {
  type BraveErrorMeta,
  type BraveSearchQuery,
  type BraveSearchResponse,
  BraveErrorMetaSchema,
  BraveErrorSchema,
  BraveSearchResponseSchema,
  BraveWebResultSchema,
} from './schema.js'

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
  const parsed = BraveSearchResponseSchema.safeParse(body)
  if (parsed.success) return parsed.data
  const where = parsed.error.issues
    .slice(0, 3)
    .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
    .join('; ')
  throw new ProviderError(`brave response did not have the expected shape (${where})`, {
    kind: 'bad_response',
    provider: 'brave',
  })
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

function parseNumberList(value: string | undefined): number[] {
  if (!value) return []
  return value
    .split(',')
    .map((part) => Number(part.trim()))
    .filter((n) => Number.isFinite(n) && n >= 0)
}

/**
 * Reads Brave's two-valued `X-RateLimit-Limit/Remaining/Reset` headers (`1, 15000`: per second, per month; resets
 * are seconds to wait, per Brave's docs, and a Unix time is read as one too). Undefined when none are present.
 */
export function parseBraveRateLimit(
  headers: Readonly<Record<string, string>>,
  nowMs: number,
): RateLimitInfo | undefined {
  const limit = parseNumberList(headers['x-ratelimit-limit'])
  const remaining = parseNumberList(headers['x-ratelimit-remaining'])
  const reset = parseNumberList(headers['x-ratelimit-reset'])
  const info: RateLimitInfo = {}
  if (limit[0] !== undefined) info.limit = limit[0]
  if (remaining[0] !== undefined) info.remaining = remaining[0]
  const resetMs = reset[0] === undefined ? undefined : resetDelayMs(reset[0], nowMs)
  if (resetMs !== undefined) info.resetMs = resetMs
  if (limit[1] !== undefined) info.quotaLimit = limit[1]
  if (remaining[1] !== undefined) info.quotaRemaining = remaining[1]
  const quotaResetMs = reset[1] === undefined ? undefined : resetDelayMs(reset[1], nowMs)
  if (quotaResetMs !== undefined) info.quotaResetMs = quotaResetMs
  return Object.keys(info).length > 0 ? info : undefined
}

/** The vendor's own words as a sentence: whitespace collapsed, capped, ending in punctuation; '' when none. */
function vendorWords(detail: string | null | undefined): string {
  if (!detail) return ''
  const flat = detail.replace(/\s+/g, ' ').trim()
  if (!flat) return ''
  const capped = flat.length > 200 ? `${flat.slice(0, 199)}…` : flat
  return /[.!?…]$/.test(capped) ? capped : `${capped}.`
}

const count = (n: number): string => n.toLocaleString('en-US')

/**
 * What Brave's `meta` says about the plan, as sentences a person can act on:
 * `Plan "Free" allows 1 request per second (1 in flight); 15 of 2,000 monthly requests used.`
 */
function describeBravePlan(meta: BraveErrorMeta | undefined): string {
  if (!meta) return ''
  const parts: string[] = []
  const plan = meta.plan ? `Plan "${meta.plan}"` : 'The plan'
  if (typeof meta.rate_limit === 'number') {
    const current =
      typeof meta.rate_current === 'number' ? ` (${count(meta.rate_current)} already used this second)` : ''
    parts.push(
      `${plan} allows ${count(meta.rate_limit)} request${meta.rate_limit === 1 ? '' : 's'} per second${current}`,
    )
  } else if (meta.plan) parts.push(plan)
  if (typeof meta.quota_limit === 'number' && typeof meta.quota_current === 'number')
    parts.push(`${count(meta.quota_current)} of ${count(meta.quota_limit)} monthly requests used`)
  return parts.length > 0 ? `${parts.join('; ')}.` : ''
}

/** The plan's limits as pacing reads them: its per-second rate and what is left of the monthly quota. */
function braveLimits(meta: BraveErrorMeta | undefined): VendorLimits | undefined {
  if (!meta) return undefined
  const limits: VendorLimits = {}
  if (typeof meta.rate_limit === 'number' && meta.rate_limit > 0) limits.perSecond = meta.rate_limit
  if (typeof meta.quota_limit === 'number' && meta.quota_limit > 0) {
    limits.quotaLimit = meta.quota_limit
    if (typeof meta.quota_current === 'number')
      limits.quotaRemaining = Math.max(0, meta.quota_limit - meta.quota_current)
  }
  return Object.keys(limits).length > 0 ? limits : undefined
}

// Pydantic-style `loc` + `msg` of a failed parameter: `query.count: Input should be less than or equal to 20`.
function failedParameters(meta: BraveErrorMeta | undefined): string {
  const errors = meta?.errors ?? []
  return errors
    .slice(0, 3)
    .map((e) => [e.loc?.join('.'), e.msg].filter(Boolean).join(': '))
    .filter((text) => text.length > 0)
    .join('; ')
}

// A VALIDATION error is about the token only when Brave says the token is what failed; Brave now reports a bad
// token as SUBSCRIPTION_TOKEN_INVALID, and a real VALIDATION with an empty `meta` was a parameter problem.
function validationIsAboutToken(meta: BraveErrorMeta | undefined, detail: string | null | undefined): boolean {
  if (describesKeyRejection(detail)) return true
  return (meta?.errors ?? []).some((e) => /subscription|token/i.test(e.loc?.join('.') ?? ''))
}

/**
 * Maps Brave's error responses to `ProviderError`, keeping Brave's own `detail` in the message: token errors
 * (any status) → `auth`, 422 `VALIDATION` → non-retryable `upstream` naming the failed parameters,
 * 429 `RATE_LIMITED` → `rate_limited` and `QUOTA_LIMITED` → `quota`, both with the plan, its per-second rate and
 * the monthly quota used; undefined for the status-based default.
 */
export function mapBraveError(
  response: HttpErrorResponse,
  secrets: readonly (string | undefined)[] = [],
): ProviderError | undefined {
  const parsed = BraveErrorSchema.safeParse(response.json)
  const error = parsed.success ? parsed.data.error : undefined
  const metaParsed = BraveErrorMetaSchema.safeParse(error?.meta)
  const meta = metaParsed.success ? metaParsed.data : undefined
  const code = error?.code ?? undefined
  const status = response.status
  const label = `HTTP ${status}${code ? ` ${code}` : ''}`
  const words = vendorWords(error?.detail)
  const said = words ? `: ${words}` : ''
  const plan = describeBravePlan(meta)
  const base = { provider: 'brave', status, code, secrets, limits: braveLimits(meta) }
  // NOTE(brave): Retry-After is not always sent on 429; the first X-RateLimit-Reset value is the per-second window,
  // and without headers the plan's per-second rate in the body says how long one slot lasts.
  const resetSec = parseNumberList(response.headers['x-ratelimit-reset'])[0]
  const perSecond = meta?.rate_limit
  const retryAfterMs =
    response.retryAfterMs ??
    (resetSec !== undefined
      ? resetSec * 1000
      : typeof perSecond === 'number' && perSecond > 0
        ? Math.ceil(1000 / perSecond)
        : undefined)
  const tokenRejected = `brave rejected the subscription token (${label})${said} Check BRAVE_API_KEY.`

  if (code === 'SUBSCRIPTION_TOKEN_INVALID' || status === 401 || status === 403)
    return new ProviderError(tokenRejected, { ...base, kind: 'auth' })
  if (code === 'VALIDATION' || (status === 422 && code === undefined)) {
    if (validationIsAboutToken(meta, error?.detail)) return new ProviderError(tokenRejected, { ...base, kind: 'auth' })
    const which = failedParameters(meta)
    const where = which
      ? ` Failed: ${which}.`
      : ' Brave named no parameter; the key is not the problem, check the query options sent (count, country, search_lang, freshness).'
    return new ProviderError(`brave rejected the request parameters (${label})${said}${where}`, {
      ...base,
      kind: 'bad_request',
    })
  }
  if (code === 'QUOTA_LIMITED' || status === 402)
    return new ProviderError(
      `brave monthly quota exhausted (${label})${said}${plan ? ` ${plan}` : ''} Wait for the monthly reset or upgrade the plan.`,
      { ...base, kind: 'quota', retryAfterMs: response.retryAfterMs },
    )
  if (status === 429 || code === 'RATE_LIMITED')
    return new ProviderError(
      `brave rate limit hit (${label})${said}${plan ? ` ${plan}` : ''}${
        typeof perSecond === 'number' ? ` Send at most ${count(perSecond)} per second or upgrade the plan.` : ''
      }${retryAfterMs !== undefined ? ` Retry after ${Math.ceil(retryAfterMs / 1000)}s.` : ''}`,
      { ...base, kind: 'rate_limited', retryAfterMs },
    )
  if (describesKeyRejection(error?.detail)) return new ProviderError(tokenRejected, { ...base, kind: 'auth' })
  if (status === 422 || code === 'OPTION_NOT_IN_PLAN')
    return new ProviderError(`brave refused the request (${label})${said}`, { ...base, kind: 'bad_request' })
  if (words) return errorFromStatus('brave', status, { detail: words, code, retryAfterMs, secrets })
  return undefined
}
