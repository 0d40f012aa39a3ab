import type { Reply, RouteContext, ServiceRoutes } from '../_types.js'
import { bearer, digest, field, str, strList } from '../_util.js'
import { corpusFor, queryTerms, snippet } from '../corpus.js'

// NOTE(exa): errors are `{requestId, error, tag}`. https://exa.ai/docs/reference/error-codes
const ERRORS: Record<string, { status: number; error: string }> = {
  INVALID_REQUEST_BODY: { status: 400, error: 'Invalid request body' },
  INVALID_API_KEY: { status: 401, error: 'Invalid API key' },
  NO_MORE_CREDITS: {
    status: 402,
    error: 'You have run out of credits. Please top up at https://dashboard.exa.ai/billing',
  },
  API_KEY_BUDGET_EXCEEDED: {
    status: 402,
    error: 'This API key has exceeded its spending budget. Ask your team administrator to raise it.',
  },
  ACCESS_DENIED: { status: 403, error: 'Access denied: this feature is not enabled for your plan' },
  NOT_FOUND: { status: 404, error: 'Not found' },
  RATE_LIMIT_EXCEEDED: { status: 429, error: 'You have exceeded your rate limit. Please slow down your requests.' },
  INTERNAL_ERROR: { status: 500, error: 'Internal server error' },
  BAD_GATEWAY: { status: 502, error: 'Bad gateway' },
  SERVICE_UNAVAILABLE: { status: 503, error: 'Service temporarily unavailable' },
}
const DEFAULT_TAG: Record<number, string> = {
  400: 'INVALID_REQUEST_BODY',
  401: 'INVALID_API_KEY',
  402: 'NO_MORE_CREDITS',
  403: 'ACCESS_DENIED',
  404: 'NOT_FOUND',
  429: 'RATE_LIMIT_EXCEEDED',
  500: 'INTERNAL_ERROR',
  502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
}

function errorReply(status: number, tag: string, ctx: RouteContext, message?: string): Reply {
  return {
    status,
    body: {
      requestId: digest(`exa-error\u0000${ctx.rawBody.toString('utf8')}\u0000${tag}`),
      error: message ?? ERRORS[tag]?.error ?? 'Error',
      tag,
    },
  }
}

function dateField(body: unknown, key: string): Date | undefined | null {
  const v = str(body, key)
  if (v === undefined) return undefined
  const d = new Date(v)
  return Number.isNaN(d.getTime()) ? null : d
}

function search(ctx: RouteContext): Reply {
  const body = ctx.body
  const query = str(body, 'query')
  if (!query) return errorReply(400, 'INVALID_REQUEST_BODY', ctx, 'Invalid request body: query: Required')
  const numResults = field(body, 'numResults') ?? 10
  if (typeof numResults !== 'number' || !Number.isInteger(numResults) || numResults < 1 || numResults > 100) {
    return errorReply(
      400,
      'INVALID_REQUEST_BODY',
      ctx,
      'Invalid request body: numResults: Number must be between 1 and 100',
    )
  }
  const type = str(body, 'type') ?? 'auto'
  // NOTE(exa): current types per https://exa.ai/docs/search/quickstart; `neural`/`keyword` are still accepted.
  const TYPES = ['auto', 'fast', 'instant', 'deep-lite', 'deep', 'deep-reasoning', 'neural', 'keyword']
  if (!TYPES.includes(type)) {
    return errorReply(
      400,
      'INVALID_REQUEST_BODY',
      ctx,
      `Invalid request body: type: Invalid enum value. Expected ${TYPES.map((t) => `'${t}'`).join(' | ')}, received '${type}'`,
    )
  }
  const after = dateField(body, 'startPublishedDate')
  const before = dateField(body, 'endPublishedDate')
  if (after === null || before === null)
    return errorReply(400, 'INVALID_REQUEST_BODY', ctx, 'Invalid request body: startPublishedDate: Invalid datetime')
  const includeDomains = strList(field(body, 'includeDomains'))
  const excludeDomains = strList(field(body, 'excludeDomains'))
  if (includeDomains?.length && excludeDomains?.length) {
    return errorReply(
      400,
      'INVALID_REQUEST_BODY',
      ctx,
      'Invalid request body: cannot specify both includeDomains and excludeDomains',
    )
  }
  const contents = field(body, 'contents')
  // NOTE(exa): top-level `text`/`highlights` are accepted too (older request shape).
  const textOpt = field(contents, 'text') ?? field(body, 'text')
  const highlightsOpt = field(contents, 'highlights') ?? field(body, 'highlights')
  const maxChars =
    typeof field(textOpt, 'maxCharacters') === 'number' ? (field(textOpt, 'maxCharacters') as number) : undefined
  const docs = corpusFor(query, {
    vendor: 'exa',
    count: numResults,
    now: ctx.now,
    ...(includeDomains && { includeDomains }),
    ...(excludeDomains && { excludeDomains }),
    ...(after && { after }),
    ...(before && { before }),
  })
  const resolved = type === 'auto' ? (queryTerms(query).length > 3 ? 'neural' : 'keyword') : type
  const results = docs.map((doc, i) => {
    const highlight = snippet(doc, query, 1000)
    const day = doc.publishedAt.slice(0, 10)
    return {
      id: doc.url,
      title: doc.exaNullTitle ? null : doc.title,
      url: doc.url,
      publishedDate: `${day}T00:00:00.000Z`,
      author: doc.author,
      ...(resolved === 'neural' && { score: Math.round((0.42 - i * 0.011 + doc.score * 0.05) * 10_000) / 10_000 }),
      ...(textOpt !== undefined && textOpt !== false && { text: maxChars ? doc.text.slice(0, maxChars) : doc.text }),
      ...(highlightsOpt !== undefined &&
        highlightsOpt !== false && {
          highlights: [highlight],
          highlightScores: [Math.round((0.3 + doc.score * 0.5) * 1000) / 1000],
        }),
      favicon: `https://${new URL(doc.url).hostname}/favicon.ico`,
    }
  })
  const searchCost = numResults > 25 ? 0.025 : 0.005
  const textCost = textOpt ? results.length * 0.001 : 0
  const highlightCost = highlightsOpt ? results.length * 0.001 : 0
  return {
    status: 200,
    body: {
      requestId: digest(`exa\u0000${ctx.rawBody.toString('utf8')}`),
      resolvedSearchType: resolved,
      searchType: resolved,
      results,
      costDollars: {
        total: Math.round((searchCost + textCost + highlightCost) * 1000) / 1000,
        search: { [resolved]: searchCost },
        contents: { ...(textOpt ? { text: textCost } : {}), ...(highlightsOpt ? { highlights: highlightCost } : {}) },
      },
    },
  }
}

/** Exa: `POST /search` with `x-api-key` (or a bearer token). */
export function exaRoutes(isKey: (given: string | undefined) => boolean): ServiceRoutes {
  return {
    handle(ctx) {
      const given = ctx.headers['x-api-key'] ?? bearer(ctx.headers)
      if (!given) return errorReply(401, 'INVALID_API_KEY', ctx, 'Missing API key. Pass it in the x-api-key header.')
      if (!isKey(given)) return errorReply(401, 'INVALID_API_KEY', ctx)
      if (ctx.method === 'POST' && ctx.path === '/search') {
        if (typeof ctx.body !== 'object' || ctx.body === null)
          return errorReply(400, 'INVALID_REQUEST_BODY', ctx, 'Invalid request body: expected a JSON object')
        return search(ctx)
      }
      return errorReply(404, 'NOT_FOUND', ctx, `Cannot ${ctx.method} ${ctx.path}`)
    },
    error(status, code, ctx) {
      return errorReply(status, code ?? DEFAULT_TAG[status] ?? 'INTERNAL_ERROR', ctx)
    },
  }
}
