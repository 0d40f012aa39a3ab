import { gzipSync } from 'node:zlib'
import type { Reply, RouteContext, ServiceRoutes } from '../_types.js'
import { hashInt } from '../_util.js'
import { corpusFor, snippet } from '../corpus.js'

// NOTE(stackexchange): every answer is gzip-compressed whatever the request asks; errors are
// `{error_id, error_message, error_name}` and a throttle_violation is error_id 502 sent with HTTP 400.
// A successful answer may carry `backoff` (seconds to leave the method alone). https://api.stackexchange.com/docs
const ERRORS: Record<string, { id: number; message: string }> = {
  bad_parameter: { id: 400, message: 'q' },
  access_token_required: { id: 401, message: 'access_token required' },
  invalid_access_token: { id: 402, message: 'invalid access_token' },
  access_denied: { id: 403, message: 'access denied' },
  no_method: { id: 404, message: 'no method found with this name' },
  key_required: { id: 405, message: 'key required' },
  duplicate_request: { id: 409, message: 'duplicate request' },
  internal_error: { id: 500, message: 'internal error' },
  throttle_violation: { id: 502, message: 'too many requests from this IP, more requests available in 82216 seconds' },
  temporarily_unavailable: { id: 503, message: 'temporarily unavailable' },
}
const NAME_BY_STATUS: Record<number, string> = {
  400: 'bad_parameter',
  401: 'access_token_required',
  403: 'access_denied',
  404: 'no_method',
  409: 'duplicate_request',
  429: 'throttle_violation',
  500: 'internal_error',
  502: 'throttle_violation',
  503: 'temporarily_unavailable',
}

const compressed = (status: number, body: unknown): Reply => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8', 'content-encoding': 'gzip' },
  body: gzipSync(JSON.stringify(body)),
})

function errorReply(name: string, message?: string): Reply {
  const known = ERRORS[name] ?? ERRORS.internal_error!
  const status = known.id === 502 ? 400 : known.id
  return compressed(status, { error_id: known.id, error_message: message ?? known.message, error_name: name })
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')

function search(ctx: RouteContext, key: string, backoffSec?: number): Reply {
  const q = ctx.query
  if (q.get('site') !== 'stackoverflow') return errorReply('bad_parameter', 'site')
  const given = q.get('key')
  if (given !== null && given !== key) return errorReply('bad_parameter', 'key')
  const text = q.get('q') ?? q.get('title') ?? ''
  if (!text) return errorReply('bad_parameter', 'q')
  const pagesize = Number(q.get('pagesize') ?? 30)
  if (!Number.isInteger(pagesize) || pagesize < 1 || pagesize > 100) return errorReply('bad_parameter', 'pagesize')
  const from = q.get('fromdate')
  const to = q.get('todate')
  const docs = corpusFor(text, {
    count: pagesize,
    now: ctx.now,
    ...(from && { after: new Date(Number(from) * 1000) }),
    ...(to && { before: new Date(Number(to) * 1000) }),
  })
  const withBody = q.get('filter') === 'withbody'
  let items = docs.map((doc) => {
    const id = 40_000_000 + (hashInt(doc.url) % 30_000_000)
    const accepted = hashInt(`accepted\u0000${doc.url}`) % 3 !== 0
    const created = Math.floor(Date.parse(doc.publishedAt) / 1000)
    const slug = doc.title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 60)
    return {
      tags: doc.title
        .toLowerCase()
        .split(/[^a-z0-9+#.]+/)
        .filter((w) => w.length > 2)
        .slice(0, 4),
      owner: {
        account_id: hashInt(doc.url) % 9_000_000,
        reputation: 1 + (hashInt(`rep\u0000${doc.url}`) % 90_000),
        user_id: hashInt(`user\u0000${doc.url}`) % 20_000_000,
        user_type: 'registered',
        display_name: doc.author ?? 'user4242',
        link: `https://stackoverflow.com/users/${hashInt(`user\u0000${doc.url}`) % 20_000_000}/user`,
      },
      is_answered: accepted || hashInt(doc.text) % 2 === 0,
      view_count: hashInt(`views\u0000${doc.url}`) % 500_000,
      ...(accepted && { accepted_answer_id: id + 17 }),
      answer_count: 1 + (hashInt(`answers\u0000${doc.url}`) % 12),
      score: hashInt(`score\u0000${doc.url}`) % 900,
      last_activity_date: created + 86_400,
      creation_date: created,
      question_id: id,
      content_license: 'CC BY-SA 4.0',
      link: `https://stackoverflow.com/questions/${id}/${slug}`,
      title: escapeHtml(`${doc.title.split(/\s+[-|]\s+/)[0]}?`),
      ...(withBody && {
        body: `<p>${escapeHtml(snippet(doc, text, 400))}</p>\n<pre><code>cargo build --release\n</code></pre>`,
      }),
    }
  })
  if (q.get('accepted') === 'True' || q.get('accepted') === 'true')
    items = items.filter((i) => 'accepted_answer_id' in i)
  const keyed = given !== null
  return compressed(200, {
    items,
    has_more: items.length === pagesize,
    quota_max: keyed ? 10_000 : 300,
    quota_remaining: keyed ? 9_871 : 247,
    ...(backoffSec !== undefined && { backoff: backoffSec }),
  })
}

/**
 * The Stack Exchange API 2.3: `GET /2.3/search/advanced?site=stackoverflow`, gzip always. Faults: a status answers
 * its error body; `code` picks the error name (`throttle_violation`…); `{status: 200, code: 'backoff'}` answers
 * normally with `backoff: 10`.
 */
export function stackexchangeRoutes(key: () => string): ServiceRoutes {
  return {
    handle(ctx) {
      if (ctx.method === 'GET' && ctx.path === '/2.3/search/advanced') return search(ctx, key())
      return errorReply('no_method')
    },
    error(status, code, ctx) {
      if (status === 200 && code === 'backoff') return search(ctx, key(), 10)
      return errorReply(code ?? NAME_BY_STATUS[status] ?? 'internal_error')
    },
  }
}
