import {
  type ParsedProviderRequest,
  ProviderError,
  type RateLimitInfo,
  type SearchResult,
  describesKeyRejection,
} from '@search-layer/core'
import { type HttpErrorResponse, resetDelayMs, errorFromStatus, retryHint } from '@search-layer/core/http'
import { collectResults, isoDate, parseResponseShape, plainText } from '@search-layer/core'

// NOTE(exa): includeText and excludeText take one string of up to five words each; more are enforced on the results.
const EXA_MAX_TEXT_WORDS = 5
import { type ExaSearchResponse, exaErrorSchema, ExaResultSchema, ExaSearchResponseSchema } from './schema.js'
import type { ExaSearchRequest, ExaSearchType } from './request-schema.js'

/** Exa returns at most this many results per call. */
const EXA_MAX_RESULTS = 100

const DAY_MS = 24 * 60 * 60 * 1000
const WINDOW_DAYS = { pd: 1, pw: 7, pm: 30, py: 365 } as const

/** Which page contents to ask for; snippets come from highlights first, then text. */
export type ExaContents = 'highlights' | 'text' | 'highlights+text'

/** Vendor options that shape the request body. */
export interface ExaRequestOptions {
  type?: ExaSearchType
  contents?: ExaContents
  /** Cap on characters of highlights and of text per result. */
  maxCharacters?: number
  /** Exa's `category` (`news`, `research paper`, `company`…). */
  category?: string
  /** The clock used for relative freshness windows. */
  now?: Date
}

/** Exa's `startPublishedDate`/`endPublishedDate` for a freshness window or range. */
export function toExaDateWindow(
  freshness: ParsedProviderRequest['freshness'],
  now: Date = new Date(),
): Pick<ExaSearchRequest, 'startPublishedDate' | 'endPublishedDate'> {
  if (freshness === undefined) return {}
  if (typeof freshness === 'string')
    return { startPublishedDate: new Date(now.getTime() - WINDOW_DAYS[freshness] * DAY_MS).toISOString() }
  return { startPublishedDate: `${freshness.from}T00:00:00.000Z`, endPublishedDate: `${freshness.to}T23:59:59.999Z` }
}

/** `includeText`/`excludeText` when exactly one string of at most five words is asked for; else nothing. */
function exaTextFilter<K extends 'includeText' | 'excludeText'>(
  field: K,
  texts: readonly string[] | undefined,
): Partial<Record<K, string[]>> {
  const [only, ...more] = texts ?? []
  if (only === undefined || more.length > 0 || only.split(/\s+/).length > EXA_MAX_TEXT_WORDS) return {}
  return { [field]: [only] } as Partial<Record<K, string[]>>
}

/** The JSON body for `POST /search`. Pure. */
export function buildExaRequest(request: ParsedProviderRequest, options: ExaRequestOptions = {}): ExaSearchRequest {
  const contents = options.contents ?? 'highlights+text'
  const maxCharacters = options.maxCharacters ?? 1000
  return {
    query: request.query,
    type: options.type ?? 'auto',
    numResults: Math.min(Math.max(1, request.num), EXA_MAX_RESULTS),
    // NOTE(exa): without `contents` Exa returns metadata only, i.e. empty snippets; ask explicitly and cap the size.
    contents: {
      ...(contents !== 'text' && { highlights: { maxCharacters } }),
      ...(contents !== 'highlights' && { text: { maxCharacters } }),
    },
    ...(request.includeDomains?.length && { includeDomains: request.includeDomains }),
    // NOTE(exa): includeDomains and excludeDomains cannot be combined (400); with both, exclusions are applied to the results.
    ...(!request.includeDomains?.length &&
      request.excludeDomains?.length && { excludeDomains: request.excludeDomains }),
    ...toExaDateWindow(request.freshness, options.now),
    ...exaTextFilter('includeText', request.phrases),
    ...exaTextFilter('excludeText', request.excludeTerms),
    ...(request.country && { userLocation: request.country.toUpperCase() }),
    ...(options.category && { category: options.category }),
  }
}

/** Validates a response body against `ExaSearchResponseSchema`. Throws `ProviderError` (`bad_response`). */
export function parseExaResponse(body: unknown): ExaSearchResponse {
  return parseResponseShape('exa', ExaSearchResponseSchema, body)
}

function truncateText(text: string, max: number): string {
  if (text.length <= max) return text
  const cut = text.slice(0, max)
  const lastSpace = cut.lastIndexOf(' ')
  return `${(lastSpace > max * 0.6 ? cut.slice(0, lastSpace) : cut).trimEnd()}…`
}

/** Normalised results plus how many entries had no usable URL. */
export interface MappedResults {
  results: SearchResult[]
  dropped: number
}

/**
 * Normalises Exa's `results` into `SearchResult`s: snippet from highlights joined, else text truncated
 * to `snippetMaxChars`, else summary. Pure; never throws.
 */
export function mapExaResults(
  response: ExaSearchResponse,
  request: Pick<ParsedProviderRequest, 'num' | 'includeDomains' | 'excludeDomains'>,
  snippetMaxChars = 500,
): MappedResults {
  return collectResults(
    response.results,
    ExaResultSchema,
    (item, { url, hostname, rank }) => {
      const highlights = (item.highlights ?? []).map(plainText).filter((h) => h.length > 0)
      const text = plainText(item.text)
      const snippet =
        highlights.length > 0
          ? highlights.join(' … ')
          : text
            ? truncateText(text, snippetMaxChars)
            : plainText(item.summary)
      const extra: Record<string, unknown> = {}
      if (item.id) extra.id = item.id
      if (item.author) extra.author = plainText(item.author)
      if (item.favicon) extra.favicon = item.favicon
      if (item.image) extra.image = item.image
      if (highlights.length > 1) extra.highlights = highlights
      return {
        // NOTE(exa): `title` is null for some pages; the hostname is a more useful label than an empty string.
        title: plainText(item.title) || hostname,
        url,
        snippet,
        publishedAt: isoDate(item.publishedDate),
        provider: 'exa',
        rank,
        ...(typeof item.score === 'number' && Number.isFinite(item.score) && { providerScore: item.score }),
        ...(Object.keys(extra).length > 0 && { extra }),
      }
    },
    { filters: request, limit: request.num },
  )
}

/** `costDollars.total` as a reported cost, when Exa sent one. */
export function exaCost(response: ExaSearchResponse): { usd: number; basis: 'reported' } | undefined {
  const total = response.costDollars?.total
  return typeof total === 'number' && Number.isFinite(total) && total >= 0
    ? { usd: total, basis: 'reported' }
    : undefined
}

function headerNumber(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined
  const n = Number(value.split(',')[0]?.trim())
  return Number.isFinite(n) && n >= 0 ? n : undefined
}

/**
 * Rate-limit hints from Exa's `X-RateLimit-*` headers; undefined when none are sent. `nowMs` is the caller's clock.
 */
export function parseExaRateLimit(headers: Readonly<Record<string, string>>, nowMs: number): RateLimitInfo | undefined {
  const limit = headerNumber(headers['x-ratelimit-limit'])
  const remaining = headerNumber(headers['x-ratelimit-remaining'])
  const reset = headerNumber(headers['x-ratelimit-reset'])
  const resetMs = reset === undefined ? undefined : resetDelayMs(reset, nowMs)
  const info: RateLimitInfo = {
    ...(limit !== undefined && { limit }),
    ...(remaining !== undefined && { remaining }),
    // NOTE(exa): `x-ratelimit-reset` is a Unix time in seconds (`1770771778`), not a delay; resetDelayMs reads both.
    ...(resetMs !== undefined && { resetMs }),
  }
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

const QUOTA_TAGS = new Set(['NO_MORE_CREDITS', 'API_KEY_BUDGET_EXCEEDED', 'INSUFFICIENT_CREDITS'])

/**
 * Maps Exa's `{requestId, error, tag}` errors to `ProviderError`, keeping Exa's own `error` text: 401,
 * `INVALID_API_KEY` or a text saying the key is invalid/missing (Exa has answered that with a bare 400) → `auth`;
 * 402 and credit tags → `quota`; 403 → `auth` (not allowed for this key); 429 → `rate_limited`; other 400/422 →
 * `bad_request` (a parameter Exa refused); other 4xx → non-retryable `upstream`; undefined for 5xx without a body (status-based default).
 */
export function mapExaError(
  response: HttpErrorResponse,
  secrets: readonly (string | undefined)[] = [],
): ProviderError | undefined {
  const parsed = exaErrorSchema().safeParse(response.json)
  const body = parsed.success ? parsed.data : undefined
  const tag = body?.tag ?? undefined
  const status = response.status
  const label = `HTTP ${status}${tag ? ` ${tag}` : ''}`
  const words = vendorWords(body?.error)
  const said = words ? `: ${words}` : ''
  const requestId = body?.requestId ? ` [requestId ${body.requestId}]` : ''
  const base = { provider: 'exa', status, code: tag, secrets }
  if (status === 402 || (tag !== undefined && QUOTA_TAGS.has(tag)))
    return new ProviderError(
      `exa credits or key budget exhausted (${label})${said} Top up or raise the key's budget in the Exa dashboard.${requestId}`,
      { ...base, kind: 'quota' },
    )
  if (status === 401 || tag === 'INVALID_API_KEY' || (status < 500 && describesKeyRejection(body?.error)))
    return new ProviderError(`exa rejected the API key (${label})${said} Check EXA_API_KEY.${requestId}`, {
      ...base,
      kind: 'auth',
    })
  if (status === 403)
    return new ProviderError(`exa refused this key for the request (${label})${said}${requestId}`, {
      ...base,
      kind: 'auth',
    })
  if (status === 429)
    return new ProviderError(`exa rate limit hit (${label})${said}${retryHint(response.retryAfterMs)}${requestId}`, {
      ...base,
      kind: 'rate_limited',
      retryAfterMs: response.retryAfterMs,
    })
  if (status === 400 || status === 422)
    return new ProviderError(`exa rejected the request parameters (${label})${said}${requestId}`, {
      ...base,
      kind: 'bad_request',
    })
  if (status >= 400 && status < 500 && status !== 408)
    return new ProviderError(`exa refused the request (${label})${said}${requestId}`, {
      ...base,
      kind: 'upstream',
      retryable: false,
    })
  if (words)
    return errorFromStatus('exa', status, {
      detail: `${words}${requestId}`,
      code: tag,
      retryAfterMs: response.retryAfterMs,
      secrets,
    })
  return undefined
}
