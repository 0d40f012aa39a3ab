import type { Reply, RouteContext, ServiceRoutes } from '../_types.js'
import { bearer, DAY_MS, field, hashInt, str, strList, uuidFor } from '../_util.js'
import { corpusFor, snippet, sentences as splitSentences, vendorUrl } from '../corpus.js'

// NOTE(tavily): errors are FastAPI-style `{"detail": {"error": "..."}}`; 432/433 are Tavily's own plan-limit statuses.
// https://docs.tavily.com/documentation/api-reference/endpoint/search
const MESSAGES: Record<number, string> = {
  400: 'Invalid request parameters.',
  401: 'Unauthorized: missing or invalid API key.',
  403: 'Forbidden: this API key is not allowed to use this endpoint.',
  404: 'Not Found',
  429: 'Your request has been blocked due to excessive requests. Please reduce rate of requests.',
  432: "This request exceeds your plan's set usage limit. Please upgrade your plan or contact support@tavily.com",
  433: 'This request exceeds the pay-as-you-go limit. You can increase your limit on the Tavily dashboard.',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
}

function errorReply(status: number, message?: string): Reply {
  return { status, body: { detail: { error: message ?? MESSAGES[status] ?? 'Error' } } }
}

const TIME_RANGES: Record<string, number> = { day: 1, d: 1, week: 7, w: 7, month: 31, m: 31, year: 365, y: 365 }

function search(ctx: RouteContext): Reply {
  const body = ctx.body
  const query = str(body, 'query')
  if (!query) return errorReply(400, 'Query is missing.')
  const topic = str(body, 'topic') ?? 'general'
  if (!['general', 'news', 'finance'].includes(topic))
    return errorReply(400, "Invalid topic. Must be 'general', 'news' or 'finance'.")
  const depth = str(body, 'search_depth') ?? 'basic'
  if (!['basic', 'advanced', 'fast', 'ultra-fast'].includes(depth))
    return errorReply(400, "Invalid search depth. Must be 'basic', 'advanced', 'fast' or 'ultra-fast'.")
  const maxResults = field(body, 'max_results') ?? 5
  if (typeof maxResults !== 'number' || !Number.isInteger(maxResults) || maxResults < 0 || maxResults > 20) {
    return errorReply(400, 'max_results must be between 0 and 20.')
  }
  const timeRange = str(body, 'time_range')
  if (timeRange !== undefined && TIME_RANGES[timeRange] === undefined)
    return errorReply(400, "Invalid time_range. Must be 'day', 'week', 'month' or 'year'.")
  const daysField = field(body, 'days')
  const days = timeRange
    ? TIME_RANGES[timeRange]
    : topic === 'news' && typeof daysField === 'number'
      ? daysField
      : undefined
  const includeDomains = strList(field(body, 'include_domains'))
  const excludeDomains = strList(field(body, 'exclude_domains'))
  const rawContent = field(body, 'include_raw_content')
  const docs = corpusFor(query, {
    vendor: 'tavily',
    count: maxResults,
    now: ctx.now,
    ...(includeDomains?.length && { includeDomains }),
    ...(excludeDomains?.length && { excludeDomains }),
    ...(days !== undefined && { after: new Date(ctx.now.getTime() - days * DAY_MS) }),
  })
  const results = docs.map((doc, i) => ({
    url: vendorUrl(doc.url, 'tavily'),
    title: doc.title,
    content: depth === 'advanced' ? doc.text : snippet(doc, query, 400),
    score: Math.round(Math.max(0.05, 0.86 - i * 0.07 + doc.score * 0.1) * 100_000) / 100_000,
    raw_content:
      rawContent === true || rawContent === 'text' || rawContent === 'markdown'
        ? `# ${doc.title}\n\n${doc.text}`
        : null,
    ...(topic === 'news' && { published_date: new Date(doc.publishedAt).toUTCString() }),
  }))
  const includeAnswer = field(body, 'include_answer')
  const answer =
    includeAnswer === true || includeAnswer === 'basic' || includeAnswer === 'advanced' ? answerFor(query, docs) : null
  return {
    status: 200,
    body: {
      query,
      follow_up_questions: null,
      answer,
      images: [],
      results,
      response_time: Math.round((0.6 + (hashInt(query) % 120) / 100) * 100) / 100,
      request_id: uuidFor(`tavily\u0000${ctx.rawBody.toString('utf8')}`),
    },
  }
}

function answerFor(query: string, docs: { title: string; text: string; generated: boolean }[]): string {
  const real = docs.filter((d) => !d.generated)
  if (real.length === 0)
    return `There is little authoritative information about "${query}"; the available sources are general guides and personal blog posts.`
  const first = real[0]!
  const firstSentence = splitSentences(first.text)[0] ?? first.text
  const second = real[1]
  return `${firstSentence} According to "${first.title}", this is the key point for ${query}.${second ? ` "${second.title}" adds further detail and examples.` : ''}`
}

/** Tavily: `POST /search` with `Authorization: Bearer tvly-…`. */
export function tavilyRoutes(isKey: (given: string | undefined) => boolean): ServiceRoutes {
  return {
    handle(ctx) {
      // NOTE(tavily): the legacy `api_key` body field is not accepted without the header.
      const given = bearer(ctx.headers)
      if (!isKey(given)) return errorReply(401)
      if (ctx.method === 'POST' && ctx.path === '/search') {
        if (typeof ctx.body !== 'object' || ctx.body === null) return errorReply(400, 'Invalid JSON body.')
        return search(ctx)
      }
      return errorReply(404)
    },
    error(status) {
      return errorReply(status)
    },
  }
}
