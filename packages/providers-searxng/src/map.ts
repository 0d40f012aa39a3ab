import {
  type ParsedProviderRequest,
  ProviderError,
  type SearchResult,
  collectResults,
  isoDate,
  plainText,
  queryWithSiteOperators,
} from '@search-layer/core'
import { type HttpErrorResponse, retryHint } from '@search-layer/core/http'
import { SearxngResultSchema, type SearxngResponse } from './schema.js'

/** The query string of one `GET /search`. */
export interface SearxngQuery {
  q: string
  format: 'json'
  categories: string
  language?: string
  time_range?: 'day' | 'week' | 'month' | 'year'
  safesearch?: 0 | 1 | 2
}

const TIME_RANGES = { pd: 'day', pw: 'week', pm: 'month', py: 'year' } as const
const RANGE_DAYS: readonly [number, SearxngQuery['time_range']][] = [
  [1, 'day'],
  [7, 'week'],
  [31, 'month'],
  [365, 'year'],
]
const LANGUAGE = /^[a-z]{2,3}(-[A-Za-z]{2,4})?$/

/** `time_range` for a freshness: windows map directly; a `{from, to}` range gets the smallest window reaching `from`. */
export function searxngTimeRange(
  freshness: ParsedProviderRequest['freshness'],
  now: Date,
): SearxngQuery['time_range'] | undefined {
  if (freshness === undefined) return undefined
  if (typeof freshness === 'string') return TIME_RANGES[freshness]
  const days = (now.getTime() - Date.parse(`${freshness.from}T00:00:00Z`)) / 86_400_000
  return RANGE_DAYS.find(([limit]) => days <= limit)?.[1]
}

/**
 * The query string. `language` passes through when it is a plain code (`en`, `zh-CN`: SearXNG's own form); `country`
 * completes a bare language (`en` + `gb` → `en-GB`). Phrases, excluded terms, file types and domains go in `q` as
 * operators, which SearXNG hands to its engines (it has no parameters for them).
 */
export function buildSearxngQuery(
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
  options: { now: Date; categories?: string; safesearch?: 0 | 1 | 2 },
): SearxngQuery {
  const timeRange = searxngTimeRange(request.freshness, options.now)
  let language = request.language && LANGUAGE.test(request.language) ? request.language : undefined
  if (language && !language.includes('-') && request.country) language = `${language}-${request.country.toUpperCase()}`
  return {
    q: searxngQueryText(request),
    format: 'json',
    categories: options.categories ?? 'general',
    ...(language && { language }),
    ...(timeRange && { time_range: timeRange }),
    ...(options.safesearch !== undefined && { safesearch: options.safesearch }),
  }
}

/** `q`: the query's own operators, then `site:` (one, or several joined by OR) and `-site:` for domain filters. */
function searxngQueryText(
  request: Pick<
    ParsedProviderRequest,
    'query' | 'includeDomains' | 'excludeDomains' | 'phrases' | 'excludeTerms' | 'fileTypes'
  >,
): string {
  return queryWithSiteOperators(request)
}

/** Normalised results plus how many entries were unusable. */
export interface MappedResults {
  results: SearchResult[]
  dropped: number
}

/**
 * Maps results: plain text, `publishedDate` (no zone, read as UTC), SearXNG's `score` as `providerScore`, and the
 * engines that found each result in `extra.engines`. A `{from, to}` freshness drops dated results outside it (SearXNG
 * only knows day/week/month/year).
 */
export function mapSearxngResults(
  response: SearxngResponse,
  request: Pick<ParsedProviderRequest, 'num' | 'freshness' | 'includeDomains' | 'excludeDomains'>,
): MappedResults {
  const range = typeof request.freshness === 'object' ? request.freshness : undefined
  const mapped = collectResults(
    response.results,
    SearxngResultSchema,
    (item, { url, rank }) => {
      const engines = item.engines?.length ? item.engines : item.engine ? [item.engine] : []
      const extra: Record<string, unknown> = { engines }
      if (item.category) extra.category = item.category
      if (item.author) extra.author = plainText(item.author)
      if (item.thumbnail) extra.thumbnail = item.thumbnail
      return {
        title: plainText(item.title) || url,
        url,
        snippet: plainText(item.content),
        publishedAt: isoDate(item.publishedDate),
        provider: 'searxng',
        rank,
        ...(typeof item.score === 'number' && Number.isFinite(item.score) && { providerScore: item.score }),
        extra,
      }
    },
    { filters: request },
  )
  const inRange = (r: SearchResult) =>
    !range ||
    r.publishedAt === null ||
    (r.publishedAt.slice(0, 10) >= range.from && r.publishedAt.slice(0, 10) <= range.to)
  return { results: mapped.results.filter(inRange).slice(0, request.num), dropped: mapped.dropped }
}

/** The `settings.yml` change that turns JSON output on, quoted in the 403 error. */
const SEARXNG_JSON_FIX =
  'in settings.yml, under `search:`, list json in `formats:` (e.g. `formats: [html, json]`) and restart SearXNG'

/**
 * SearXNG's errors are bare pages: 403 means JSON output is disabled (`config`, saying which settings.yml line to
 * change); 429 is its limiter (`rate_limited`); the rest falls back to the status-based default (undefined).
 */
export function mapSearxngError(response: HttpErrorResponse): ProviderError | undefined {
  if (response.status === 403)
    return new ProviderError(
      `searxng refused format=json (HTTP 403): JSON output is disabled on this instance; ${SEARXNG_JSON_FIX}. (If it is enabled, the instance's limiter or bot detection is blocking this client.)`,
      { kind: 'config', provider: 'searxng', status: 403, retryable: false, code: 'json_disabled' },
    )
  if (response.status === 429)
    return new ProviderError(
      `searxng's limiter refused the request (HTTP 429)${retryHint(response.retryAfterMs)}; for a private instance, set server.limiter: false in settings.yml`,
      { kind: 'rate_limited', provider: 'searxng', status: 429, retryAfterMs: response.retryAfterMs },
    )
  return undefined
}
