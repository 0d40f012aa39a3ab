import {
  type ParsedProviderRequest,
  ProviderError,
  type ProviderResponse,
  type RateLimitInfo,
  type SearchResult,
  describesKeyRejection,
  redactSecrets,
} from '@search-layer/core'
import { type HttpErrorResponse, resetDelayMs, errorFromStatus, retryHint } from '@search-layer/core/http'
import { collectResults, httpUrl, isoDate, parseResponseShape, plainText } from '@search-layer/core'
import { tavilyCountry } from './countries.js'
import { tavilyErrorSchema, TavilyResultSchema, TavilySearchResponseSchema } from './schema.js'
import type { TavilySearchRequest } from './request-schema.js'

/** Tavily search depth: `basic` costs 1 credit, `advanced` 2. */
export type TavilySearchDepth = 'basic' | 'advanced'
/** Tavily topic: `news` switches freshness to `days` and disables `country`. */
export type TavilyTopic = 'general' | 'news'

export interface TavilyRequestSettings {
  searchDepth: TavilySearchDepth
  topic: TavilyTopic
  includeAnswer: boolean
}

/** Tavily refuses more than 20 results per call. */
const TAVILY_MAX_RESULTS = 20
const MAX_INCLUDE_DOMAINS = 300
const MAX_EXCLUDE_DOMAINS = 150
const WINDOW_TO_RANGE = { pd: 'day', pw: 'week', pm: 'month', py: 'year' } as const
const WINDOW_TO_DAYS = { pd: 1, pw: 7, pm: 30, py: 365 } as const
const CREDITS_PER_DEPTH: Record<TavilySearchDepth, number> = { basic: 1, advanced: 2 }

/** Builds the `POST /search` body from a validated request. Pure; never throws. */
export function buildTavilyRequest(
  request: ParsedProviderRequest,
  settings: TavilyRequestSettings,
): TavilySearchRequest {
  const body: TavilySearchRequest = {
    query: request.query,
    search_depth: settings.searchDepth,
    topic: settings.topic,
    max_results: Math.min(request.num, TAVILY_MAX_RESULTS),
    include_answer: settings.includeAnswer,
    include_usage: true,
  }
  const freshness = request.freshness
  if (typeof freshness === 'string') {
    // NOTE(tavily): `days` only applies to the news topic; general searches use `time_range`.
    if (settings.topic === 'news') body.days = WINDOW_TO_DAYS[freshness]
    else body.time_range = WINDOW_TO_RANGE[freshness]
  } else if (freshness) {
    body.start_date = freshness.from
    body.end_date = freshness.to
  }
  const include = dedupeDomains(request.includeDomains).slice(0, MAX_INCLUDE_DOMAINS)
  const exclude = dedupeDomains(request.excludeDomains).slice(0, MAX_EXCLUDE_DOMAINS)
  if (include.length > 0) body.include_domains = include
  if (exclude.length > 0) body.exclude_domains = exclude
  // NOTE(tavily): `country` boosts results only for the general topic; unknown codes are dropped, not sent.
  const country = settings.topic === 'general' ? tavilyCountry(request.country) : undefined
  if (country) body.country = country
  return body
}

function dedupeDomains(domains: readonly string[] | undefined): string[] {
  return [...new Set((domains ?? []).map((d) => d.trim().toLowerCase()).filter(Boolean))]
}

/**
 * Validates and normalises a `/search` body into a `ProviderResponse`. Throws `ProviderError`
 * (`bad_response`) when the body is not Tavily's shape; results without a usable URL are dropped and counted.
 */
export function mapTavilyResponse(
  body: unknown,
  options: { searchDepth?: TavilySearchDepth; headers?: Readonly<Record<string, string>>; nowMs?: number } = {},
): ProviderResponse {
  const data = parseResponseShape('tavily', TavilySearchResponseSchema, body)
  const { results, dropped } = collectResults(data.results, TavilyResultSchema, (item, { url, rank }) => {
    const result: SearchResult = {
      title: plainText(item.title) || hostOf(url),
      url,
      snippet: plainText(item.content),
      publishedAt: isoDate(item.published_date),
      provider: 'tavily',
      rank,
    }
    if (typeof item.score === 'number' && Number.isFinite(item.score)) result.providerScore = item.score
    const favicon = httpUrl(item.favicon)
    if (favicon) result.extra = { favicon }
    return result
  })
  const response: ProviderResponse = { results, dropped }
  const answer = typeof data.answer === 'string' ? data.answer.trim() : ''
  if (answer) response.answer = answer
  const reported = data.usage?.credits
  if (typeof reported === 'number' && Number.isFinite(reported))
    response.cost = { credits: reported, basis: 'reported' }
  else response.cost = { credits: CREDITS_PER_DEPTH[options.searchDepth ?? 'basic'], basis: 'estimated' }
  const rateLimit = rateLimitFromHeaders(options.headers ?? {}, options.nowMs ?? Date.now())
  if (rateLimit) response.rateLimit = rateLimit
  return response
}

function hostOf(url: string): string {
  return new URL(url).hostname.replace(/^www\./, '')
}

function headerNumber(headers: Readonly<Record<string, string>>, names: readonly string[]): number | undefined {
  for (const name of names) {
    const raw = headers[name]
    if (raw === undefined) continue
    const value = Number(raw.split(',')[0]?.trim())
    if (Number.isFinite(value) && value >= 0) return value
  }
  return undefined
}

/**
 * Rate-limit hints from `x-ratelimit-*` / `ratelimit-*` headers, when the vendor or a gateway sends them (none in
 * Tavily's recorded answers, so a reset may be seconds to wait or a Unix time). `nowMs` is the caller's clock.
 */
export function rateLimitFromHeaders(
  headers: Readonly<Record<string, string>>,
  nowMs: number,
): RateLimitInfo | undefined {
  const limit = headerNumber(headers, ['x-ratelimit-limit', 'ratelimit-limit', 'x-ratelimit-limit-requests'])
  const remaining = headerNumber(headers, [
    'x-ratelimit-remaining',
    'ratelimit-remaining',
    'x-ratelimit-remaining-requests',
  ])
  const resetSec = headerNumber(headers, ['x-ratelimit-reset', 'ratelimit-reset', 'x-ratelimit-reset-requests'])
  if (limit === undefined && remaining === undefined && resetSec === undefined) return undefined
  const resetMs = resetSec === undefined ? undefined : resetDelayMs(resetSec, nowMs)
  return {
    ...(limit !== undefined && { limit }),
    ...(remaining !== undefined && { remaining }),
    ...(resetMs !== undefined && { resetMs }),
  }
}

function errorDetail(response: HttpErrorResponse): { detail?: string; code?: string } {
  const parsed = tavilyErrorSchema().safeParse(response.json)
  if (!parsed.success) return {}
  const { detail, error } = parsed.data
  if (typeof detail === 'string') return { detail }
  if (detail?.error) return { detail: detail.error }
  if (typeof error === 'string') return { detail: error }
  if (error) return { detail: error.message ?? undefined, code: error.code ?? undefined }
  return {}
}

/**
 * Maps a Tavily error response to a `ProviderError`: 401/403 or any 4xx whose text says the key is invalid `auth`, 429 `rate_limited`, 432 (plan or key
 * limit) and 433 (pay-as-you-go cap) `quota`, 5xx `upstream`. The vendor's detail is redacted and truncated.
 */
export function mapTavilyError(
  response: HttpErrorResponse,
  secrets: readonly (string | undefined)[] = [],
): ProviderError {
  const { detail: rawDetail, code } = errorDetail(response)
  const detail = rawDetail ? truncate(redactSecrets(rawDetail, secrets), 200) : undefined
  const suffix = detail ? `: ${detail}` : ''
  const base = { provider: 'tavily', status: response.status, code, secrets }
  // NOTE(tavily): 432 and 433 are Tavily's own codes (tavily-python maps both with 403 to ForbiddenError).
  if (response.status === 432)
    return new ProviderError(
      `tavily plan or API-key usage limit reached (HTTP 432); upgrade the plan or raise the key's limit${suffix}`,
      {
        ...base,
        kind: 'quota',
      },
    )
  if (response.status === 433)
    return new ProviderError(
      `tavily pay-as-you-go spending limit reached (HTTP 433); raise the PAYG limit in the dashboard${suffix}`,
      {
        ...base,
        kind: 'quota',
      },
    )
  if (response.status === 429)
    return new ProviderError(`tavily rate limit hit (HTTP 429)${suffix}${retryHint(response.retryAfterMs)}`, {
      ...base,
      kind: 'rate_limited',
      retryAfterMs: response.retryAfterMs,
    })
  if (response.status === 401 || response.status === 403 || (response.status < 500 && describesKeyRejection(rawDetail)))
    return new ProviderError(`tavily rejected the API key (HTTP ${response.status}); check TAVILY_API_KEY${suffix}`, {
      ...base,
      kind: 'auth',
    })
  return errorFromStatus('tavily', response.status, { detail, code, retryAfterMs: response.retryAfterMs, secrets })
}

function truncate(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat
}
