import {
  type ParsedProviderRequest,
  ProviderError,
  type SearchResult,
  collectResults,
  isoDate,
  plainText,
} from '@search-layer/core'
import { type HttpErrorResponse, retryHint } from '@search-layer/core/http'
import {
  type HackerNewsHit,
  hackerNewsErrorSchema,
  HackerNewsHitSchema,
  type HackerNewsSearchResponse,
} from './schema.js'

/** Which index to ask: by relevance (`search`) or newest first (`search_by_date`). */
export type HackerNewsSort = 'relevance' | 'date'

/** The query string of one `GET /search` or `/search_by_date`. */
export interface HackerNewsQuery {
  query: string
  tags: string
  hitsPerPage: number
  numericFilters?: string
}

/** Algolia serves at most 1000 hits a page; more than 50 stories per query is never useful here. */
const HACKERNEWS_MAX_HITS = 50
const DAY_SECONDS = 86_400
const WINDOW_DAYS = { pd: 1, pw: 7, pm: 31, py: 365 } as const
const ITEM_URL = 'https://news.ycombinator.com/item?id='
const SNIPPET_MAX_CHARS = 400

/**
 * `search_by_date` when the request asks for the last day or week (news-like recency), `search` otherwise; `sort`
 * forces one.
 */
export function hackerNewsEndpoint(
  request: Pick<ParsedProviderRequest, 'freshness'>,
  sort?: HackerNewsSort,
): 'search' | 'search_by_date' {
  if (sort) return sort === 'date' ? 'search_by_date' : 'search'
  return request.freshness === 'pd' || request.freshness === 'pw' ? 'search_by_date' : 'search'
}

/** Freshness as Algolia numeric filters on `created_at_i` (epoch seconds); ranges include their whole last day. */
export function hackerNewsNumericFilters(freshness: ParsedProviderRequest['freshness'], now: Date): string | undefined {
  if (freshness === undefined) return undefined
  if (typeof freshness === 'string') {
    const since = Math.floor(now.getTime() / 1000) - WINDOW_DAYS[freshness] * DAY_SECONDS
    return `created_at_i>${since}`
  }
  const from = Date.parse(`${freshness.from}T00:00:00Z`) / 1000
  const to = Date.parse(`${freshness.to}T00:00:00Z`) / 1000 + DAY_SECONDS
  return `created_at_i>=${from},created_at_i<${to}`
}

/** The query string for a request: stories only, `num` capped at 50, freshness as numeric filters. */
export function buildHackerNewsQuery(
  request: Pick<ParsedProviderRequest, 'query' | 'num' | 'freshness'>,
  now: Date,
  tags = 'story',
): HackerNewsQuery {
  const numericFilters = hackerNewsNumericFilters(request.freshness, now)
  return {
    query: request.query,
    tags,
    hitsPerPage: Math.min(request.num, HACKERNEWS_MAX_HITS),
    ...(numericFilters && { numericFilters }),
  }
}

/** The discussion page of an item. */
function hackerNewsItemUrl(objectId: string): string {
  return `${ITEM_URL}${encodeURIComponent(objectId)}`
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text
}

// Stories link out when they have a url; text posts and comments have only their discussion page. An empty string
// is what Algolia stores for "no url" on older items.
function linkOf(hit: HackerNewsHit): string {
  const isComment = hit._tags?.includes('comment') ?? false
  if (isComment) return hackerNewsItemUrl(hit.objectID)
  return hit.url?.trim() ? hit.url : hackerNewsItemUrl(hit.objectID)
}

function publishedAt(hit: HackerNewsHit): string | null {
  const fromIso = isoDate(hit.created_at)
  if (fromIso) return fromIso
  const ms = typeof hit.created_at_i === 'number' ? hit.created_at_i * 1000 : Number.NaN
  // Out-of-range epochs make an Invalid Date, whose toISOString throws.
  return Number.isFinite(ms) && Math.abs(ms) < 8.64e15 ? isoDate(new Date(ms).toISOString()) : null
}

function snippetOf(hit: HackerNewsHit): string {
  const text = plainText(hit.story_text) || plainText(hit.comment_text)
  if (text) return truncate(text, SNIPPET_MAX_CHARS)
  const points = hit.points ?? 0
  const comments = hit.num_comments ?? 0
  return `${points} point${points === 1 ? '' : 's'} and ${comments} comment${comments === 1 ? '' : 's'} on Hacker News`
}

/** Normalised results plus how many hits were unusable. */
export interface MappedResults {
  results: SearchResult[]
  dropped: number
}

/**
 * Maps hits to results: the story's own URL, else its Hacker News page; comments under their story's title; text
 * without `<p>`/`<em>` or entities; points, comment count, author and the discussion URL in `extra`.
 */
export function mapHackerNewsResults(
  response: HackerNewsSearchResponse,
  request: Pick<ParsedProviderRequest, 'num' | 'includeDomains' | 'excludeDomains'>,
): MappedResults {
  const withLinks = response.hits.map((hit) => {
    const parsed = HackerNewsHitSchema.safeParse(hit)
    return parsed.success ? { ...parsed.data, url: linkOf(parsed.data) } : hit
  })
  return collectResults(
    withLinks,
    HackerNewsHitSchema,
    (hit, { url, rank }) => {
      const isComment = hit._tags?.includes('comment') ?? false
      const title = plainText(isComment ? hit.story_title : hit.title) || plainText(hit.story_title)
      const extra: Record<string, unknown> = {
        hnUrl: hackerNewsItemUrl(hit.objectID),
        points: hit.points ?? 0,
        comments: hit.num_comments ?? 0,
      }
      if (hit.author) extra.author = hit.author
      extra.type = isComment ? 'comment' : url.startsWith(ITEM_URL) ? 'text' : 'story'
      if (isComment && hit.story_url) extra.storyUrl = hit.story_url
      return {
        title: title || url,
        url,
        snippet: snippetOf(hit),
        publishedAt: publishedAt(hit),
        provider: 'hackernews',
        rank,
        extra,
      }
    },
    { filters: request, limit: request.num },
  )
}

/**
 * Algolia's errors: 429 (10 000 requests an hour per IP) is `rate_limited`; a 400 (bad filter) is a non-retryable
 * `upstream` with Algolia's message; the rest falls back to the status-based default (undefined).
 */
export function mapHackerNewsError(response: HttpErrorResponse): ProviderError | undefined {
  const body = hackerNewsErrorSchema().safeParse(response.json)
  const message = body.success ? plainText(body.data.message) : ''
  const detail = message ? `: ${message}` : ''
  if (response.status === 429)
    return new ProviderError(`hackernews rate limit hit (HTTP 429)${detail}${retryHint(response.retryAfterMs)}`, {
      kind: 'rate_limited',
      provider: 'hackernews',
      status: 429,
      retryAfterMs: response.retryAfterMs,
    })
  if (response.status >= 400 && response.status < 500)
    return new ProviderError(`hackernews refused the request (HTTP ${response.status})${detail}`, {
      kind: 'upstream',
      provider: 'hackernews',
      status: response.status,
      retryable: false,
    })
  return undefined
}
