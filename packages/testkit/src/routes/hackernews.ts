import type { Reply, RouteContext, ServiceRoutes } from '../_types.js'
import { hashInt } from '../_util.js'
import { corpusFor, queryTerms, snippet } from '../corpus.js'

// NOTE(hackernews): Algolia answers errors as `{"message": "...", "status": N}`; the API takes no key and allows
// 10 000 requests an hour per IP. https://hn.algolia.com/api
function errorReply(status: number, message?: string): Reply {
  const messages: Record<number, string> = {
    400: 'Invalid syntax for numeric filters',
    404: 'Not Found',
    429: 'Too many requests',
    500: 'Internal Server Error',
    503: 'Service Unavailable',
  }
  return { status, body: { message: message ?? messages[status] ?? 'Error', status } }
}

const NUMERIC = /^(created_at_i|points|num_comments)(<=|>=|<|>|=)(\d+)$/

/** `created_at_i>1700000000,points>10` → bounds on the date; null when one of the filters is malformed. */
function numericBounds(value: string | null): { after?: Date; before?: Date } | null {
  if (!value) return {}
  const bounds: { after?: Date; before?: Date } = {}
  for (const part of value.split(',')) {
    const m = NUMERIC.exec(part.trim())
    if (!m) return null
    if (m[1] !== 'created_at_i') continue
    const at = new Date(Number(m[3]) * 1000)
    if (m[2]!.startsWith('>')) bounds.after = at
    else if (m[2]!.startsWith('<')) bounds.before = at
  }
  return bounds
}

const highlight = (text: string, query: string): { value: string; matchLevel: string; matchedWords: string[] } => {
  const words = queryTerms(query).filter((w) => text.toLowerCase().includes(w))
  let value = text.replace(/&/g, '&amp;').replace(/'/g, '&#x27;')
  for (const w of words)
    value = value.replace(new RegExp(`(${w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')})`, 'gi'), '<em>$1</em>')
  return { value, matchLevel: words.length ? 'full' : 'none', matchedWords: words }
}

function search(ctx: RouteContext, byDate: boolean): Reply {
  const query = ctx.query.get('query') ?? ''
  const perPage = Number(ctx.query.get('hitsPerPage') ?? 20)
  const page = Number(ctx.query.get('page') ?? 0)
  if (!Number.isInteger(perPage) || perPage < 0 || perPage > 1000)
    return errorReply(400, 'hitsPerPage must be an integer between 0 and 1000')
  if (!Number.isInteger(page) || page < 0) return errorReply(400, 'page must be a positive integer')
  const bounds = numericBounds(ctx.query.get('numericFilters'))
  if (bounds === null) return errorReply(400, `Invalid syntax for numeric filters: ${ctx.query.get('numericFilters')}`)
  const docs = corpusFor(query, { count: perPage, offset: page * perPage, now: ctx.now, ...bounds })
  if (byDate) docs.sort((a, b) => Date.parse(b.publishedAt) - Date.parse(a.publishedAt))
  const hits = docs.map((doc) => {
    const id = String(30_000_000 + (hashInt(doc.url) % 10_000_000))
    const createdAt = Math.floor(Date.parse(doc.publishedAt) / 1000)
    // Every fourth story is a text post (Ask HN): no url, the text as HTML in story_text.
    const textPost = hashInt(`ask\u0000${doc.url}`) % 4 === 0
    const title = textPost ? `Ask HN: ${doc.title}?` : doc.title
    const author = `user${hashInt(doc.url) % 997}`
    return {
      _highlightResult: {
        author: { value: author, matchLevel: 'none', matchedWords: [] },
        title: highlight(title, query),
        ...(textPost
          ? { story_text: highlight(`<p>${snippet(doc, query)}</p>`, query) }
          : { url: highlight(doc.url, query) }),
      },
      _tags: ['story', `author_${author}`, `story_${id}`, ...(textPost ? ['ask_hn'] : [])],
      author,
      children: [Number(id) + 1, Number(id) + 7],
      created_at: new Date(createdAt * 1000).toISOString().replace('.000Z', 'Z'),
      created_at_i: createdAt,
      num_comments: hashInt(`c\u0000${doc.url}`) % 400,
      objectID: id,
      points: 1 + (hashInt(`p\u0000${doc.url}`) % 900),
      story_id: Number(id),
      ...(textPost
        ? {
            story_text: `<p>${snippet(doc, query).replace(/&/g, '&amp;').replace(/'/g, '&#x27;')}</p><p>Thanks!`,
          }
        : { url: doc.url }),
      title,
      updated_at: ctx.now.toISOString(),
    }
  })
  const nbHits = hits.length === perPage ? 1000 : page * perPage + hits.length
  return {
    status: 200,
    headers: { 'access-control-allow-origin': '*' },
    body: {
      exhaustive: { nbHits: false, typo: false },
      exhaustiveNbHits: false,
      exhaustiveTypo: false,
      hits,
      hitsPerPage: perPage,
      nbHits,
      nbPages: Math.ceil(nbHits / Math.max(perPage, 1)),
      page,
      params: ctx.query.toString(),
      processingTimeMS: 3,
      query,
      serverTimeMS: 5,
    },
  }
}

/** Algolia's Hacker News Search API: `GET /api/v1/search` (relevance) and `/api/v1/search_by_date` (newest first). */
export function hackernewsRoutes(): ServiceRoutes {
  return {
    handle(ctx) {
      if (ctx.method === 'GET' && ctx.path === '/api/v1/search') return search(ctx, false)
      if (ctx.method === 'GET' && ctx.path === '/api/v1/search_by_date') return search(ctx, true)
      return errorReply(404)
    },
    error: (status, code) => errorReply(status, code),
  }
}
