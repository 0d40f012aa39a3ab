import {
  type ParsedProviderRequest,
  ProviderError,
  type SearchResult,
  collectResults,
  isoDate,
  plainText,
} from '@search-layer/core'
import { type HttpErrorResponse, retryHint } from '@search-layer/core/http'
import { bochaErrorSchema, BochaWebPageSchema, type BochaSearchResponse } from './schema.js'

/** The JSON body of one `POST /v1/web-search`. */
export interface BochaSearchBody {
  query: string
  freshness: string
  summary: boolean
  count: number
  include?: string
  exclude?: string
}

/** Bocha returns at most 50 results per call. */
const BOCHA_MAX_COUNT = 50
const FRESHNESS = { pd: 'oneDay', pw: 'oneWeek', pm: 'oneMonth', py: 'oneYear' } as const

/** `freshness`: `oneDay`/`oneWeek`/`oneMonth`/`oneYear`, `YYYY-MM-DD..YYYY-MM-DD` for a range, else `noLimit`. */
export function bochaFreshness(freshness: ParsedProviderRequest['freshness']): string {
  if (freshness === undefined) return 'noLimit'
  if (typeof freshness === 'object') return `${freshness.from}..${freshness.to}`
  return FRESHNESS[freshness]
}

/** The request body; domain filters go in `include`/`exclude` (`|`-separated), `count` is capped at 50. */
export function buildBochaBody(
  request: Pick<ParsedProviderRequest, 'query' | 'num' | 'freshness' | 'includeDomains' | 'excludeDomains'>,
  options: { summary?: boolean } = {},
): BochaSearchBody {
  return {
    query: request.query,
    freshness: bochaFreshness(request.freshness),
    summary: options.summary ?? true,
    count: Math.min(request.num, BOCHA_MAX_COUNT),
    ...(request.includeDomains?.length && { include: request.includeDomains.join('|') }),
    ...(request.excludeDomains?.length && { exclude: request.excludeDomains.join('|') }),
  }
}

/** Normalised results plus how many entries were unusable. */
export interface MappedResults {
  results: SearchResult[]
  dropped: number
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text
}

/**
 * Maps `data.webPages.value`: `name` → title, `snippet` (else the start of `summary`) → snippet, `datePublished`
 * (Beijing time with its offset) → publishedAt; the summary, site name and crawl date in `extra`. A body whose
 * `code` is not 200 is an error (`mapBochaCode`).
 */
export function mapBochaResults(
  response: BochaSearchResponse,
  request: Pick<ParsedProviderRequest, 'num' | 'includeDomains' | 'excludeDomains'>,
  secrets: readonly string[] = [],
): MappedResults {
  const code = Number(response.code)
  if (code !== 200) throw bochaCodeError(code, plainText(response.msg), undefined, secrets)
  return collectResults(
    response.data?.webPages?.value ?? [],
    BochaWebPageSchema,
    (page, { url, rank }) => {
      const summary = plainText(page.summary)
      const extra: Record<string, unknown> = {}
      if (summary) extra.summary = summary
      if (page.siteName) extra.siteName = plainText(page.siteName)
      if (page.siteIcon) extra.siteIcon = page.siteIcon
      // NOTE(bocha): dateLastCrawled is documented as Beijing wall time yet often ends in "Z"; kept as given.
      if (page.dateLastCrawled) extra.dateLastCrawled = page.dateLastCrawled
      return {
        title: plainText(page.name) || url,
        url,
        snippet: plainText(page.snippet) || truncate(summary, 400),
        publishedAt: isoDate(page.datePublished),
        provider: 'bocha',
        rank,
        ...(Object.keys(extra).length > 0 && { extra }),
      }
    },
    { filters: request, limit: request.num },
  )
}

/**
 * Bocha's own codes (HTTP status and body `code` agree): 401 `auth`, 403 (insufficient balance) `quota`, 429
 * `rate_limited`, 400 `bad_request`, other codes a non-retryable `upstream`, 5xx a retryable `upstream`.
 */
function bochaCodeError(
  code: number,
  message: string,
  retryAfterMs?: number,
  secrets: readonly string[] = [],
): ProviderError {
  const detail = message ? `: ${message}` : ''
  const base = { provider: 'bocha', status: code, code: String(code), secrets }
  if (code === 401)
    return new ProviderError(`bocha rejected the API key (${code})${detail}; check BOCHA_API_KEY`, {
      ...base,
      kind: 'auth',
    })
  if (code === 403)
    return new ProviderError(
      `bocha account balance is exhausted (${code})${detail}; top up at https://open.bochaai.com`,
      {
        ...base,
        kind: 'quota',
      },
    )
  if (code === 429)
    return new ProviderError(`bocha rate limit hit (${code})${detail}${retryHint(retryAfterMs)}`, {
      ...base,
      kind: 'rate_limited',
      retryAfterMs,
    })
  if (code >= 500) return new ProviderError(`bocha server error (${code})${detail}`, { ...base, kind: 'upstream' })
  if (code === 400)
    return new ProviderError(`bocha rejected the request parameters (${code})${detail}`, {
      ...base,
      kind: 'bad_request',
    })
  return new ProviderError(`bocha refused the request (${code})${detail}`, {
    ...base,
    kind: 'upstream',
    retryable: false,
  })
}

/** An HTTP error answer: Bocha's body code (else the status) through `bochaCodeError`. */
export function mapBochaError(response: HttpErrorResponse, secrets: readonly string[] = []): ProviderError {
  const body = bochaErrorSchema().safeParse(response.json)
  const code = body.success && Number.isInteger(Number(body.data.code)) ? Number(body.data.code) : response.status
  const message = body.success ? plainText(body.data.message ?? body.data.msg) : ''
  return bochaCodeError(code, message, response.retryAfterMs, secrets)
}
