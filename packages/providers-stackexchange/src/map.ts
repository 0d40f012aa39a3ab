import {
  type ParsedProviderRequest,
  ProviderError,
  type RateLimitInfo,
  type SearchResult,
  collectResults,
  isoDate,
  plainText,
} from '@search-layer/core'
import { type HttpErrorResponse, retryHint, upstreamWaitMs } from '@search-layer/core/http'
import { z } from 'zod'
import { stackExchangeErrorSchema, StackExchangeQuestionSchema, type StackExchangeResponse } from './schema.js'

/** The query string of one `GET /search/advanced`. */
export interface StackExchangeQuery {
  q: string
  site: string
  pagesize: number
  order: 'desc'
  sort: 'relevance'
  filter: 'withbody'
  fromdate?: number
  todate?: number
  key?: string
}

/** The API serves at most 100 items a page. */
const STACKEXCHANGE_MAX_PAGE_SIZE = 100
const WINDOW_DAYS = { pd: 1, pw: 7, pm: 31, py: 365 } as const
const DAY_SECONDS = 86_400
const SNIPPET_MAX_CHARS = 400
// A throttle_violation asking to wait longer than this is the daily quota (300 a day without a key), not a burst.
const QUOTA_WAIT_SECONDS = 3600

/** The query: relevance order with bodies, freshness as `fromdate`/`todate` (creation, epoch seconds), the key if any. */
export function buildStackExchangeQuery(
  request: Pick<ParsedProviderRequest, 'query' | 'num' | 'freshness'>,
  options: { now: Date; site?: string; key?: string },
): StackExchangeQuery {
  const { freshness } = request
  const nowSeconds = Math.floor(options.now.getTime() / 1000)
  const dates =
    freshness === undefined
      ? {}
      : typeof freshness === 'string'
        ? { fromdate: nowSeconds - WINDOW_DAYS[freshness] * DAY_SECONDS }
        : {
            fromdate: Date.parse(`${freshness.from}T00:00:00Z`) / 1000,
            todate: Date.parse(`${freshness.to}T00:00:00Z`) / 1000 + DAY_SECONDS - 1,
          }
  return {
    q: request.query,
    site: options.site ?? 'stackoverflow',
    pagesize: Math.min(request.num, STACKEXCHANGE_MAX_PAGE_SIZE),
    order: 'desc',
    sort: 'relevance',
    filter: 'withbody',
    ...dates,
    ...(options.key && { key: options.key }),
  }
}

/** Normalised results plus how many items were unusable. */
export interface MappedResults {
  results: SearchResult[]
  dropped: number
}

const QuestionWithUrlSchema = StackExchangeQuestionSchema.extend({ url: z.string() })

const epochIso = (seconds: number | null | undefined): string | null =>
  typeof seconds === 'number' && Number.isFinite(seconds) && Math.abs(seconds) < 8.64e12
    ? isoDate(new Date(seconds * 1000).toISOString())
    : null

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text
}

/**
 * Maps questions, those with an accepted answer first (the API cannot sort by it; relevance order is kept within
 * each group): entities decoded, the body's start as snippet, creation as date; score, answers and tags in `extra`.
 */
export function mapStackExchangeResults(
  response: StackExchangeResponse,
  request: Pick<ParsedProviderRequest, 'num' | 'includeDomains' | 'excludeDomains'>,
): MappedResults {
  const hasAccepted = (item: unknown) =>
    typeof (item as { accepted_answer_id?: unknown } | null)?.accepted_answer_id === 'number'
  const ordered = [...response.items.filter(hasAccepted), ...response.items.filter((i) => !hasAccepted(i))]
  const withUrls = ordered.map((item) =>
    item && typeof item === 'object' && 'link' in item ? { ...item, url: (item as { link: unknown }).link } : item,
  )
  return collectResults(
    withUrls,
    QuestionWithUrlSchema,
    (q, { url, rank }) => {
      const accepted = typeof q.accepted_answer_id === 'number'
      const tags = q.tags ?? []
      const summary = `${q.score ?? 0} votes, ${q.answer_count ?? 0} answers${accepted ? ' (one accepted)' : ''}${tags.length ? `; tags: ${tags.join(', ')}` : ''}`
      const extra: Record<string, unknown> = {
        questionId: q.question_id,
        score: q.score ?? 0,
        answerCount: q.answer_count ?? 0,
        accepted,
        isAnswered: q.is_answered ?? false,
        tags,
      }
      if (typeof q.view_count === 'number') extra.viewCount = q.view_count
      const lastActivity = epochIso(q.last_activity_date)
      if (lastActivity) extra.lastActivityAt = lastActivity
      if (q.content_license) extra.license = q.content_license
      return {
        title: plainText(q.title),
        url,
        snippet: truncate(plainText(q.body), SNIPPET_MAX_CHARS) || summary,
        publishedAt: epochIso(q.creation_date),
        provider: 'stackexchange',
        rank,
        extra,
      }
    },
    { filters: request, limit: request.num },
  )
}

/**
 * The daily quota (`quota_max`/`quota_remaining`, reset at midnight UTC) and, when the answer carries `backoff`, a
 * window with nothing remaining until it has passed.
 */
export function stackExchangeRateLimit(response: StackExchangeResponse, now: Date): RateLimitInfo | undefined {
  const info: RateLimitInfo = {}
  if (typeof response.quota_max === 'number') info.quotaLimit = response.quota_max
  if (typeof response.quota_remaining === 'number') info.quotaRemaining = response.quota_remaining
  if (info.quotaLimit !== undefined || info.quotaRemaining !== undefined) {
    const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)
    info.quotaResetMs = midnight - now.getTime()
  }
  const backoffMs = upstreamWaitMs((response.backoff ?? 0) * 1000)
  if (backoffMs !== undefined && backoffMs > 0) {
    info.remaining = 0
    info.resetMs = backoffMs
  }
  return Object.keys(info).length > 0 ? info : undefined
}

const AUTH_ERRORS = new Set(['access_token_required', 'invalid_access_token', 'access_denied', 'key_required'])

/**
 * Stack Exchange's errors (most arrive as HTTP 400 whatever they are): `throttle_violation` is `rate_limited` with the
 * wait it names, or `quota` when that wait is the rest of the day; a refused key and access errors are `auth`;
 * `duplicate_request` is `rate_limited`; internal/unavailable are retryable `upstream`; `bad_parameter` is `bad_request`; anything else is a non-retryable `upstream`.
 */
export function mapStackExchangeError(
  response: HttpErrorResponse,
  secrets: readonly string[] = [],
): ProviderError | undefined {
  const parsed = stackExchangeErrorSchema().safeParse(response.json)
  if (!parsed.success) return undefined
  const { error_name: name, error_id: id } = parsed.data
  const message = plainText(parsed.data.error_message)
  const base = { provider: 'stackexchange', status: response.status, code: name, secrets }
  const detail = `${name}${message ? `: ${message}` : ''}`
  if (name === 'throttle_violation') {
    // A number starts only where digits do: tried at every digit, a long run of them was read once per digit.
    const seconds = Number(/(?<!\d)(\d+)\s*seconds?/.exec(message)?.[1])
    const retryAfterMs = Number.isFinite(seconds) ? seconds * 1000 : response.retryAfterMs
    if (Number.isFinite(seconds) && seconds > QUOTA_WAIT_SECONDS)
      return new ProviderError(
        `stackexchange daily quota for this IP is spent (${detail})${retryHint(retryAfterMs)}; set STACKEXCHANGE_KEY to raise it from 300 to 10000 requests a day`,
        { ...base, kind: 'quota', retryAfterMs },
      )
    return new ProviderError(`stackexchange throttled the request (${detail})${retryHint(retryAfterMs)}`, {
      ...base,
      kind: 'rate_limited',
      retryAfterMs,
    })
  }
  if (name === 'duplicate_request')
    return new ProviderError(`stackexchange refused a duplicate request (${detail})`, { ...base, kind: 'rate_limited' })
  if ((name === 'bad_parameter' && message === 'key') || AUTH_ERRORS.has(name))
    return new ProviderError(
      `stackexchange refused the key or access (${detail}); check STACKEXCHANGE_KEY or unset it to search without one`,
      { ...base, kind: 'auth' },
    )
  if (name === 'internal_error' || name === 'temporarily_unavailable' || id >= 500)
    return new ProviderError(`stackexchange is unavailable (${detail})`, { ...base, kind: 'upstream' })
  if (name === 'bad_parameter')
    return new ProviderError(`stackexchange rejected the search parameters (${detail})`, {
      ...base,
      kind: 'bad_request',
    })
  return new ProviderError(`stackexchange rejected the search (${detail})`, {
    ...base,
    kind: 'upstream',
    retryable: false,
  })
}
