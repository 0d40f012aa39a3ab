import type { Reply, RouteContext, ServiceRoutes } from '../_types.js'
import { hashInt } from '../_util.js'
import { corpusFor, queryTerms, snippet } from '../corpus.js'

// NOTE(wikipedia): the Action API reports its own errors with HTTP 200 and `{"error": {code, info, "*"}}`; only the
// edge (Varnish) answers with an HTTP error status, as a short text page. https://www.mediawiki.org/wiki/API:Errors_and_warnings
const API_ERRORS: Record<string, string> = {
  maxlag: 'Waiting for a database server: 5 seconds lagged.',
  ratelimited: "You've exceeded your rate limit. Please wait some time and try again.",
  readapidenied: 'You need read permission to use this module.',
  srsearch: 'The "srsearch" parameter must be set.',
  badvalue: 'Unrecognized value for parameter "list": serch.',
  internal_api_error_DBQueryError: 'A database query error has occurred.',
}

function apiError(code: string, lang: string): Reply {
  return {
    status: 200,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'mediawiki-api-error': code,
      ...(code === 'maxlag' && { 'retry-after': '5', 'x-database-lag': '5' }),
    },
    body: {
      error: {
        code,
        info: API_ERRORS[code] ?? 'Unknown error.',
        '*': `See https://${lang}.wikipedia.org/w/api.php for API usage. Subscribe to the mediawiki-api-announce mailing list at &lt;https://lists.wikimedia.org/postorius/lists/mediawiki-api-announce.lists.wikimedia.org/&gt; for notice of API deprecations and breaking changes.`,
      },
      servedby: 'mw-api-ext.eqiad.main-5c8f7b9d4-x2k9q',
    },
  }
}

function edgeError(status: number): Reply {
  const reason: Record<number, string> = { 403: 'Forbidden', 429: 'Too many requests', 503: 'Service Unavailable' }
  return {
    status,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    body: `<!DOCTYPE html><html lang="en"><meta charset="utf-8"><title>Wikimedia Error</title><p>Error: ${status}, ${reason[status] ?? 'Error'} at Fri, 20 Nov 2026 12:00:00 GMT</p></html>`,
  }
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

function markMatches(text: string, query: string): string {
  let out = escapeHtml(text)
  for (const term of queryTerms(query)) {
    const re = new RegExp(`(${term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')})`, 'gi')
    out = out.replace(re, '<span class="searchmatch">$1</span>')
  }
  return out
}

function search(ctx: RouteContext, lang: string): Reply {
  const q = ctx.query
  if (q.get('action') !== 'query') return apiError('badvalue', lang)
  if (q.get('list') !== 'search') return apiError('badvalue', lang)
  const term = q.get('srsearch')
  if (!term) return apiError('srsearch', lang)
  const limit = Math.min(Math.max(Number(q.get('srlimit') ?? 10) || 10, 1), 500)
  const offset = Number(q.get('sroffset') ?? 0) || 0
  // Each wiki holds the corpus documents in its language, then any other (as many articles exist in both).
  const docs = corpusFor(term, { count: limit + offset + 10, now: ctx.now })
    .filter((d) => !d.generated)
    .sort((a, b) => Number(b.language === lang) - Number(a.language === lang))
    .slice(offset, offset + limit)
  const v2 = q.get('formatversion') === '2'
  const search = docs.map((doc) => {
    const title = doc.title.replace(/\s+[-|–]\s+.*$/, '').replace(/[#<>[\]{}|]/g, '')
    return {
      ns: 0,
      title,
      pageid: 10_000 + (hashInt(`${lang}\u0000${doc.url}`) % 9_000_000),
      size: 2_000 + (hashInt(doc.url) % 90_000),
      wordcount: 300 + (hashInt(doc.text) % 9_000),
      snippet: markMatches(snippet(doc, term, 160), term),
      timestamp: doc.publishedAt.replace(/\.\d{3}Z$/, 'Z'),
    }
  })
  const totalhits = search.length + offset
  return {
    status: 200,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: {
      batchcomplete: v2 ? true : '',
      ...(search.length === limit && { continue: { sroffset: offset + limit, continue: '-||' } }),
      query: { searchinfo: { totalhits }, search },
    },
  }
}

/**
 * MediaWiki's Action API for one wiki per language: `GET /{lang}/w/api.php?action=query&list=search`. Faults with a
 * `code` answer the API's own error (HTTP 200); a bare `status` answers the edge's text page.
 */
export function wikipediaRoutes(): ServiceRoutes {
  return {
    handle(ctx) {
      const m = /^\/([a-z-]{2,12})\/w\/api\.php$/.exec(ctx.path)
      if (ctx.method !== 'GET' || !m) return edgeError(404)
      return search(ctx, m[1]!)
    },
    error(status, code, ctx) {
      const lang = /^\/([a-z-]{2,12})\//.exec(ctx.path)?.[1] ?? 'en'
      return code ? apiError(code, lang) : edgeError(status)
    },
  }
}
