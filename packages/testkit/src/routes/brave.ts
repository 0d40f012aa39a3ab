import type { Reply, RouteContext, ServiceRoutes } from '../_types.js'
import { DAY_MS, digest, uuidFor } from '../_util.js'
import { bareHost, corpusFor, sentences as splitSentences, snippet, vendorUrl } from '../corpus.js'

// NOTE(brave): errors share one envelope; the invalid-token case is a 422, not a 401.
// https://api-dashboard.search.brave.com/app/documentation/web-search/responses
const ERRORS: Record<string, { status: number; detail: string; meta: Record<string, unknown> }> = {
  SUBSCRIPTION_TOKEN_INVALID: {
    status: 422,
    detail: 'The provided subscription token is invalid.',
    meta: { component: 'authentication' },
  },
  RATE_LIMITED: {
    status: 429,
    detail: 'Request rate limit exceeded for plan.',
    meta: {
      plan: 'Free',
      rate_limit: 1,
      rate_current: 2,
      quota_limit: 2000,
      quota_current: 17,
      component: 'rate_limiter',
    },
  },
  QUOTA_LIMITED: {
    status: 429,
    detail: 'Request quota limit exceeded for plan.',
    meta: {
      plan: 'Free',
      rate_limit: 1,
      rate_current: 1,
      quota_limit: 2000,
      quota_current: 2000,
      component: 'quota_limiter',
    },
  },
  OPTION_NOT_IN_PLAN: {
    status: 403,
    detail: 'The option is not subscribed in the plan.',
    meta: { component: 'api', plan: 'Free' },
  },
  SUBSCRIPTION_NOT_FOUND: {
    status: 401,
    detail: 'The subscription token was not found.',
    meta: { component: 'authentication' },
  },
  RESOURCE_NOT_FOUND: { status: 404, detail: 'Resource not found.', meta: { component: 'api' } },
  VALIDATION: { status: 422, detail: 'Unable to validate request parameter(s)', meta: { errors: [] } },
  INTERNAL_ERROR: {
    status: 500,
    detail: 'An internal error occurred. Please try again later.',
    meta: { component: 'api' },
  },
  UPSTREAM_ERROR: { status: 502, detail: 'Upstream service returned an error.', meta: { component: 'api' } },
  SERVICE_UNAVAILABLE: { status: 503, detail: 'Service temporarily unavailable.', meta: { component: 'api' } },
}
const DEFAULT_CODE: Record<number, string> = {
  401: 'SUBSCRIPTION_NOT_FOUND',
  403: 'OPTION_NOT_IN_PLAN',
  404: 'RESOURCE_NOT_FOUND',
  422: 'SUBSCRIPTION_TOKEN_INVALID',
  429: 'RATE_LIMITED',
  500: 'INTERNAL_ERROR',
  502: 'UPSTREAM_ERROR',
  503: 'SERVICE_UNAVAILABLE',
}

// https://api-dashboard.search.brave.com/app/documentation/web-search/codes
const SEARCH_LANGS = new Set(
  'ar eu bn bg ca zh-hans zh-hant hr cs da nl en en-gb et fi fr gl de gu he hi hu is it jp kn ko lv lt ms ml mr nb pl pt-br pt-pt pa ro ru sr sk sl es sv ta te th tr uk vi'.split(
    ' ',
  ),
)
const COUNTRIES = new Set(
  'ALL AR AU AT BE BR CA CL DK FI FR DE HK IN ID IT JP KR MY MX NL NZ NO CN PL PT PH RU SA ZA ES SE CH TW TR GB US'.split(
    ' ',
  ),
)

function rateHeaders(remaining: [number, number]): Record<string, string> {
  return {
    'x-ratelimit-limit': '1, 15000',
    'x-ratelimit-policy': '1;w=1, 15000;w=2592000',
    'x-ratelimit-remaining': `${remaining[0]}, ${remaining[1]}`,
    'x-ratelimit-reset': '1, 1419200',
  }
}

function errorReply(status: number, code: string, ctx: RouteContext, meta?: Record<string, unknown>): Reply {
  const known = ERRORS[code]
  return {
    status,
    headers: { ...rateHeaders(status === 429 ? [0, code === 'QUOTA_LIMITED' ? 0 : 14_983] : [0, 14_998]) },
    body: {
      type: 'ErrorResponse',
      error: {
        id: uuidFor(`brave-error\u0000${ctx.path}\u0000${status}\u0000${code}\u0000${ctx.query.toString()}`),
        status,
        code,
        detail: known?.detail ?? 'An error occurred.',
        meta: meta ?? known?.meta ?? {},
      },
      time: Math.floor(ctx.now.getTime() / 1000),
    },
  }
}

function validation(
  ctx: RouteContext,
  loc: string,
  type: string,
  msg: string,
  input: string | null,
  extra?: Record<string, unknown>,
): Reply {
  return errorReply(422, 'VALIDATION', ctx, {
    errors: [{ type, loc: ['query', loc], msg, input, ...(extra && { ctx: extra }) }],
  })
}

// NOTE(brave): `freshness` is pd/pw/pm/py or an explicit `YYYY-MM-DDtoYYYY-MM-DD` range.
function freshnessRange(value: string | null, now: Date): { after?: Date; before?: Date } | null {
  if (!value) return {}
  const days: Record<string, number> = { pd: 1, pw: 7, pm: 31, py: 365 }
  const d = days[value]
  if (d !== undefined) return { after: new Date(now.getTime() - d * DAY_MS) }
  const m = /^(\d{4}-\d{2}-\d{2})to(\d{4}-\d{2}-\d{2})$/.exec(value)
  if (!m) return null
  return { after: new Date(`${m[1]}T00:00:00Z`), before: new Date(`${m[2]}T23:59:59Z`) }
}

function age(published: Date, now: Date): string {
  const days = Math.floor((now.getTime() - published.getTime()) / DAY_MS)
  if (days <= 0) {
    const hours = Math.max(1, Math.floor((now.getTime() - published.getTime()) / 3_600_000))
    return `${hours} hour${hours === 1 ? '' : 's'} ago`
  }
  if (days < 7) return `${days} day${days === 1 ? '' : 's'} ago`
  if (days < 31) {
    const w = Math.floor(days / 7)
    return `${w} week${w === 1 ? '' : 's'} ago`
  }
  return LONG_DATE.format(published)
}

// Same output as toLocaleDateString('en-US', these options), which builds a new formatter (~0.1 ms) on every call.
const LONG_DATE = new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' })

function decorate(text: string, query: string, on: boolean): string {
  const escaped = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/'/g, '&#x27;')
  if (!on) return text
  let out = escaped
  const words = query.split(/\s+/).filter((w) => w.length > 2)
  for (const w of words) {
    const re = new RegExp(`(${w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')})`, 'gi')
    out = out.replace(re, '<strong>$1</strong>')
  }
  return out
}

function breadcrumb(url: URL): string {
  const parts = url.pathname.split('/').filter(Boolean)
  return parts.length ? `› ${parts.slice(0, 3).join(' › ')}` : ''
}

function search(ctx: RouteContext): Reply {
  const q = ctx.query.get('q')
  if (!q) return validation(ctx, 'q', 'missing', 'Field required', null)
  if (q.length > 400)
    return validation(ctx, 'q', 'string_too_long', 'String should have at most 400 characters', q, { max_length: 400 })
  const countRaw = ctx.query.get('count') ?? '20'
  const count = Number(countRaw)
  if (!Number.isInteger(count) || count < 1 || count > 20) {
    return count > 20
      ? validation(ctx, 'count', 'less_than_equal', 'Input should be less than or equal to 20', countRaw, { le: 20 })
      : validation(ctx, 'count', 'greater_than_equal', 'Input should be greater than or equal to 1', countRaw, {
          ge: 1,
        })
  }
  const offsetRaw = ctx.query.get('offset') ?? '0'
  const offset = Number(offsetRaw)
  if (!Number.isInteger(offset) || offset < 0 || offset > 9) {
    return validation(ctx, 'offset', 'less_than_equal', 'Input should be less than or equal to 9', offsetRaw, { le: 9 })
  }
  const range = freshnessRange(ctx.query.get('freshness'), ctx.now)
  if (range === null) {
    return validation(
      ctx,
      'freshness',
      'value_error',
      'Value error, invalid freshness value',
      ctx.query.get('freshness'),
    )
  }
  // NOTE(brave): `search_lang` and `country` are enums; anything else is a 422 VALIDATION.
  const lang = ctx.query.get('search_lang')
  if (lang !== null && !SEARCH_LANGS.has(lang)) {
    return validation(ctx, 'search_lang', 'enum', 'Input should be a supported search language code', lang)
  }
  const countryParam = ctx.query.get('country')
  if (countryParam !== null && !COUNTRIES.has(countryParam.toUpperCase())) {
    return validation(ctx, 'country', 'enum', 'Input should be a supported country code', countryParam)
  }
  const decorations = ctx.query.get('text_decorations') !== 'false' && ctx.query.get('text_decorations') !== '0'
  const extra = ctx.query.get('extra_snippets') === 'true' || ctx.query.get('extra_snippets') === '1'
  // NOTE(brave): `offset` counts pages of `count` results, not results.
  const docs = corpusFor(q, { vendor: 'brave', count, offset: offset * count, now: ctx.now, ...range })
  const results = docs.map((doc) => {
    const url = vendorUrl(doc.url, 'brave')
    const u = new URL(url)
    const published = new Date(doc.publishedAt)
    const sentences = splitSentences(doc.text)
    return {
      title: doc.title,
      url,
      is_source_local: false,
      is_source_both: false,
      description: decorate(snippet(doc, q), q, decorations),
      page_age: doc.publishedAt.slice(0, 19),
      profile: {
        name: profileName(u),
        url,
        long_name: u.hostname,
        img: `https://imgs.search.brave.com/${digest(u.hostname, 43)}/favicon.png`,
      },
      language: doc.language,
      family_friendly: true,
      type: 'search_result',
      subtype: 'generic',
      is_live: false,
      meta_url: {
        scheme: 'https',
        netloc: u.hostname,
        hostname: u.hostname,
        favicon: `https://imgs.search.brave.com/${digest(u.hostname, 43)}/favicon.png`,
        path: breadcrumb(u),
      },
      age: age(published, ctx.now),
      ...(extra && { extra_snippets: sentences.slice(0, 3).map((s) => decorate(s, q, false)) }),
    }
  })
  const country = (ctx.query.get('country') ?? 'us').toLowerCase()
  return {
    status: 200,
    headers: rateHeaders([0, 14_998]),
    body: {
      query: {
        original: q,
        show_strict_warning: false,
        is_navigational: false,
        is_news_breaking: false,
        spellcheck_off: true,
        country,
        bad_results: false,
        should_fallback: false,
        postal_code: '',
        city: '',
        header_country: '',
        more_results_available: offset < 9,
        state: '',
      },
      mixed: {
        type: 'mixed',
        main: results.map((_, index) => ({ type: 'web', index, all: false })),
        top: [],
        side: [],
      },
      type: 'search',
      web: { type: 'search', results, family_friendly: true },
    },
  }
}

function profileName(u: URL): string {
  const host = bareHost(u.toString())
  const known: Record<string, string> = {
    'github.com': 'GitHub',
    'stackoverflow.com': 'Stack Overflow',
    'dev.to': 'DEV Community',
    'medium.com': 'Medium',
    'reddit.com': 'Reddit',
    'kubernetes.io': 'Kubernetes',
    'react.dev': 'React',
  }
  return (
    known[host] ??
    host
      .split('.')
      .slice(-2, -1)[0]!
      .replace(/^./, (c) => c.toUpperCase())
  )
}

/** Brave Web Search: `GET /res/v1/web/search` with `X-Subscription-Token`. */
export function braveRoutes(isKey: (given: string | undefined) => boolean): ServiceRoutes {
  return {
    handle(ctx) {
      if (!isKey(ctx.headers['x-subscription-token'])) return errorReply(422, 'SUBSCRIPTION_TOKEN_INVALID', ctx)
      if (ctx.method === 'GET' && ctx.path === '/res/v1/web/search') return search(ctx)
      return errorReply(404, 'RESOURCE_NOT_FOUND', ctx)
    },
    error(status, code, ctx) {
      return errorReply(status, code ?? DEFAULT_CODE[status] ?? 'INTERNAL_ERROR', ctx)
    },
  }
}
