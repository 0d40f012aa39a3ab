import type { Reply, RouteContext, ServiceRoutes } from '../_types.js'
import { DAY_MS, digest, field, str } from '../_util.js'
import { corpusFor, sentences, snippet } from '../corpus.js'

// NOTE(bocha): success is `{code: 200, log_id, msg, data: {_type: "SearchResponse", queryContext, webPages, images,
// videos}}`; errors are `{code: "403", message, log_id}` (code a string, text in `message`) with the same HTTP status.
// Dates are Beijing time (`+08:00`). https://bocha-ai.feishu.cn/wiki/RXEOw02rFiwzGSkd9mUcqoeAnNK
const MESSAGES: Record<number, string> = {
  400: 'Missing parameter query',
  401: 'Invalid API KEY',
  403: 'You do not have enough money',
  429: 'You have reached the request limit',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
}
const FRESHNESS_DAYS: Record<string, number> = { oneDay: 1, oneWeek: 7, oneMonth: 31, oneYear: 365 }

function errorReply(status: number, ctx: RouteContext, message?: string): Reply {
  return {
    status,
    body: {
      code: String(status),
      message: message ?? MESSAGES[status] ?? 'Error',
      log_id: digest(`bocha\u0000${status}\u0000${ctx.rawBody.toString('utf8')}`, 16),
    },
  }
}

// `noLimit`, `oneDay`…, `YYYY-MM-DD..YYYY-MM-DD` or one day `YYYY-MM-DD`; null when malformed.
function freshnessBounds(value: string | undefined, now: Date): { after?: Date; before?: Date } | null {
  if (value === undefined || value === 'noLimit') return {}
  const days = FRESHNESS_DAYS[value]
  if (days !== undefined) return { after: new Date(now.getTime() - days * DAY_MS) }
  const m = /^(\d{4}-\d{2}-\d{2})(?:\.\.(\d{4}-\d{2}-\d{2}))?$/.exec(value)
  if (!m) return null
  return { after: new Date(`${m[1]}T00:00:00+08:00`), before: new Date(`${m[2] ?? m[1]}T23:59:59+08:00`) }
}

// Beijing wall time with its offset, as Bocha writes `datePublished`.
const beijing = (iso: string) => `${new Date(Date.parse(iso) + 8 * 3_600_000).toISOString().slice(0, 19)}+08:00`

function search(ctx: RouteContext): Reply {
  const query = str(ctx.body, 'query')
  if (!query) return errorReply(400, ctx)
  const count = field(ctx.body, 'count') ?? 10
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > 50)
    return errorReply(400, ctx, 'count must be between 1 and 50')
  const bounds = freshnessBounds(str(ctx.body, 'freshness'), ctx.now)
  if (bounds === null) return errorReply(400, ctx, 'freshness is invalid')
  const split = (key: string) =>
    str(ctx.body, key)
      ?.split(/[|,]/)
      .map((d) => d.trim())
      .filter(Boolean)
  const includeDomains = split('include')
  const excludeDomains = split('exclude')
  const summary = field(ctx.body, 'summary') === true
  const docs = corpusFor(query, {
    count,
    now: ctx.now,
    ...bounds,
    ...(includeDomains?.length && { includeDomains }),
    ...(excludeDomains?.length && { excludeDomains }),
  })
  const value = docs.map((doc, i) => {
    const host = new URL(doc.url).hostname
    return {
      id: `https://api.bochaai.com/v1/#WebPages.${i}`,
      name: doc.title,
      url: doc.url,
      displayUrl: doc.url,
      snippet: snippet(doc, query, 120),
      ...(summary && { summary: sentences(doc.text).join(' ') }),
      siteName: host,
      siteIcon: `https://th.bochaai.com/favicon?domain_url=${doc.url}`,
      datePublished: beijing(doc.publishedAt),
      dateLastCrawled: `${beijing(ctx.now.toISOString()).slice(0, 19)}Z`,
      cachedPageUrl: null,
      language: null,
      isFamilyFriendly: null,
      isNavigational: null,
    }
  })
  return {
    status: 200,
    body: {
      code: 200,
      log_id: digest(`bocha\u0000${query}`, 16),
      msg: null,
      data: {
        _type: 'SearchResponse',
        queryContext: { originalQuery: query },
        webPages: {
          webSearchUrl: `https://bochaai.com/search?q=${encodeURIComponent(query)}`,
          totalEstimatedMatches: 1_000_000 + value.length,
          value,
          someResultsRemoved: true,
        },
        images: null,
        videos: null,
      },
    },
  }
}

/** Bocha Web Search: `POST /v1/web-search` with `Authorization: Bearer <key>`. */
export function bochaRoutes(isKey: (given: string | undefined) => boolean): ServiceRoutes {
  return {
    handle(ctx) {
      const auth = ctx.headers.authorization
      if (!auth) return errorReply(401, ctx, 'Missing API KEY')
      if (!auth.startsWith('Bearer ') || !isKey(auth.slice(7))) return errorReply(401, ctx)
      if (ctx.method === 'POST' && ctx.path === '/v1/web-search') return search(ctx)
      return errorReply(404, ctx, 'Not Found')
    },
    error: (status, code, ctx) => errorReply(status, ctx, code),
  }
}
