import type { Reply, RouteContext, ServiceRoutes } from '../_types.js'
import { DAY_MS, hashInt } from '../_util.js'
import { corpusFor, snippet } from '../corpus.js'

// NOTE(searxng): a self-hosted metasearch engine. JSON output must be listed in settings.yml `search.formats`,
// else `/search?format=json` is Flask's plain 403 page; the limiter answers 429. https://docs.searxng.org/dev/search_api.html
const FORBIDDEN =
  '<!doctype html>\n<html lang=en>\n<title>403 Forbidden</title>\n<h1>Forbidden</h1>\n<p>You don&#39;t have the permission to access the requested resource. It is either read-protected or not readable by the server.</p>\n'
const TOO_MANY = 'Too Many Requests'

const ENGINES = ['google', 'bing', 'duckduckgo', 'brave', 'startpage', 'wikipedia', 'qwant', 'mojeek']
const TIME_RANGES: Record<string, number> = { day: 1, week: 7, month: 31, year: 365 }
const CATEGORIES = new Set(['general', 'news', 'it', 'science', 'images', 'videos', 'social media'])

function errorReply(status: number): Reply {
  if (status === 403) return { status, headers: { 'content-type': 'text/html; charset=utf-8' }, body: FORBIDDEN }
  if (status === 429) return { status, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: TOO_MANY }
  return {
    status,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    body: `<!doctype html>\n<html lang=en>\n<title>${status} Error</title>\n<h1>Internal Server Error</h1>\n`,
  }
}

function search(ctx: RouteContext): Reply {
  const q = ctx.query
  if (q.get('format') !== 'json') return errorReply(403)
  const query = q.get('q') ?? ''
  if (!query.trim()) return { status: 400, headers: { 'content-type': 'text/plain' }, body: 'Bad Request' }
  const range = q.get('time_range')
  const days = range ? TIME_RANGES[range] : undefined
  const categories = (q.get('categories') ?? 'general').split(',').filter((c) => CATEGORIES.has(c))
  const page = Math.max(1, Number(q.get('pageno') ?? 1) || 1)
  const docs = corpusFor(query, {
    count: 10,
    offset: (page - 1) * 10,
    now: ctx.now,
    ...(days !== undefined && { after: new Date(ctx.now.getTime() - days * DAY_MS) }),
  })
  const results = docs.map((doc, i) => {
    const engines = ENGINES.filter((e, j) => hashInt(`${e}\u0000${doc.url}`) % 3 === 0 || j === i % ENGINES.length)
    const dated = categories.includes('news') || hashInt(`date\u0000${doc.url}`) % 2 === 0
    const u = new URL(doc.url)
    return {
      template: 'default.html',
      title: doc.title,
      content: snippet(doc, query),
      img_src: '',
      iframe_src: '',
      audio_src: '',
      thumbnail: '',
      publishedDate: dated ? doc.publishedAt.slice(0, 19) : null,
      pubdate: dated ? doc.publishedAt.slice(0, 19).replace('T', ' ') : '',
      length: null,
      views: '',
      author: '',
      metadata: '',
      priority: '',
      engines,
      open_group: false,
      close_group: false,
      positions: engines.map((_, k) => i + 1 + k),
      score: Math.round((engines.length / (i + 1)) * 1000) / 1000,
      category: categories.includes('news') ? 'news' : 'general',
      url: doc.url,
      engine: engines[0],
      parsed_url: [u.protocol.slice(0, -1), u.host, u.pathname, '', u.search.slice(1), u.hash.slice(1)],
    }
  })
  return {
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: {
      query,
      results,
      answers: [],
      corrections: [],
      infoboxes: [],
      suggestions: [`${query} tutorial`],
      unresponsive_engines: [
        ['duckduckgo', 'CAPTCHA'],
        ['startpage', 'Suspended: too many requests'],
      ],
    },
  }
}

/** A SearXNG instance: `GET /search?format=json`; 403 when JSON output is disabled, 429 from its limiter. */
export function searxngRoutes(): ServiceRoutes {
  return {
    handle(ctx) {
      if ((ctx.method === 'GET' || ctx.method === 'POST') && ctx.path === '/search') return search(ctx)
      return errorReply(404)
    },
    error: (status) => errorReply(status),
  }
}
