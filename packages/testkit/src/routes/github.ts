import type { Reply, RouteContext, ServiceRoutes } from '../_types.js'
import { digest } from '../_util.js'
import type { GithubIssueSpec } from '../types.js'
import { githubSearch, searchRateHeaders } from './github-search.js'
import { commentsJson, issueJson, pullJson, reviewCommentsJson, reviewsJson } from './github-bodies.js'
import { type StoredIssue, generatedTimeline, issueKey, seedIssues, storedIssue } from './github-issues.js'

const DOCS = 'https://docs.github.com/rest'

const fail = (status: number, message: string, docs: string, extra: Record<string, string> = {}): Reply => ({
  status,
  headers: extra,
  body: { message, documentation_url: docs, status: String(status) },
})

const paginate = (
  ctx: RouteContext,
  items: unknown[],
  h: Record<string, string>,
  paging: GithubIssueSpec['paging'] = {},
): Reply => {
  const perPageRaw = Number(ctx.query.get('per_page') ?? 30)
  const perPage = Number.isInteger(perPageRaw) && perPageRaw > 0 ? Math.min(perPageRaw, 100) : 30
  const pageRaw = Number(ctx.query.get('page') ?? 1)
  const page = Number.isInteger(pageRaw) && pageRaw > 0 ? pageRaw : 1
  const last = Math.max(1, Math.ceil(items.length / perPage))
  const link = (p: number, rel: string) => {
    const u = new URL(`${paging.linkBase ?? ctx.baseUrl}${ctx.path}`)
    for (const [k, v] of ctx.query) if (k !== 'page' && k !== 'per_page') u.searchParams.append(k, v)
    u.searchParams.set('per_page', String(perPage))
    u.searchParams.set('page', String(p))
    return `<${u.toString()}>; rel="${rel}"`
  }
  const links: string[] = []
  const all = paging.rels !== 'next'
  if (page > 1 && all) links.push(link(Math.min(page - 1, last), 'prev'))
  if (page < last) links.push(link(page + 1, 'next'))
  if (page < last && all) links.push(link(last, 'last'))
  if (page > 1 && all) links.push(link(1, 'first'))
  return {
    status: 200,
    headers: { ...h, ...(links.length && { link: links.join(', ') }) },
    body: items.slice((page - 1) * perPage, page * perPage),
  }
}

/**
 * GitHub REST: issues, comments, timeline, pulls, reviews, review comments, `search/repositories` and `search/issues`;
 * `Link` pagination and rate-limit headers. Fault codes for 403: `secondary`, `abuse`, `search` (primary search limit).
 */
export function githubRoutes(
  token: () => string,
): ServiceRoutes & { addIssue(spec: GithubIssueSpec): void; resetCounters(): void } {
  const issues = new Map<string, StoredIssue>()
  let used = 0

  const addIssue = (spec: GithubIssueSpec) =>
    issues.set(issueKey(spec.owner, spec.repo, spec.number), storedIssue(spec))
  for (const spec of seedIssues()) addIssue(spec)

  const headers = (authed: boolean, ctx: RouteContext, remaining?: number): Record<string, string> => {
    const limit = authed ? 5000 : 60
    return {
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': String(remaining ?? Math.max(0, limit - used)),
      'x-ratelimit-used': String(Math.min(used, limit)),
      'x-ratelimit-reset': String(Math.floor(ctx.now.getTime() / 1000) + 3600),
      'x-ratelimit-resource': 'core',
      'x-github-api-version-selected': '2022-11-28',
      'x-github-request-id': digest(`${ctx.method} ${ctx.path}?${ctx.query}`, 16).toUpperCase(),
    }
  }

  const errorFor = (status: number, code: string | undefined, ctx: RouteContext): Reply => {
    const h = headers(true, ctx)
    switch (status) {
      case 401:
        return fail(401, 'Bad credentials', DOCS, h)
      case 403:
        if (code === 'secondary')
          return fail(
            403,
            'You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID.',
            `${DOCS}/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits`,
            { ...h, 'retry-after': '60' },
          )
        if (code === 'abuse')
          return fail(
            403,
            'You have triggered an abuse detection mechanism. Please wait a few minutes before you try again.',
            'https://developer.github.com/v3/#abuse-rate-limits',
            { 'retry-after': '60' },
          )
        if (code === 'search')
          return fail(
            403,
            "API rate limit exceeded for 203.0.113.7. (But here's the good news: Authenticated requests get a higher rate limit. Check out the documentation for more details.)",
            `${DOCS}/overview/rate-limits-for-the-rest-api`,
            searchRateHeaders(false, ctx, 0),
          )
        if (code === 'forbidden')
          return fail(403, 'Resource not accessible by personal access token', `${DOCS}/issues/issues#get-an-issue`, h)
        return fail(
          403,
          'API rate limit exceeded for user ID 583231.',
          `${DOCS}/overview/rate-limits-for-the-rest-api`,
          headers(true, ctx, 0),
        )
      case 404:
        return fail(404, 'Not Found', `${DOCS}/issues/issues#get-an-issue`, h)
      case 410:
        return fail(410, 'This issue was deleted', `${DOCS}/issues/issues#get-an-issue`, h)
      case 422:
        return fail(422, 'Validation Failed', `${DOCS}/issues/issues#get-an-issue`, h)
      case 429:
        return fail(
          429,
          'You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID.',
          `${DOCS}/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits`,
          headers(true, ctx, 0),
        )
      default:
        return { status, headers: h, body: { message: 'Server Error' } }
    }
  }

  return {
    addIssue,
    resetCounters() {
      used = 0
    },
    handle(ctx) {
      const auth = ctx.headers.authorization
      const given = auth ? /^(?:token|bearer)\s+(.+)$/i.exec(auth.trim())?.[1] : undefined
      if (auth !== undefined && given !== token()) return errorFor(401, undefined, ctx)
      used++
      const h = headers(auth !== undefined, ctx)
      if (ctx.method !== 'GET') return fail(404, 'Not Found', DOCS, h)
      if (ctx.path === '/search/repositories' || ctx.path === '/search/issues')
        return githubSearch(ctx, ctx.path === '/search/issues' ? 'issues' : 'repositories', auth !== undefined)
      const m = /^\/repos\/([^/]+)\/([^/]+)\/(issues|pulls)\/(\d+)(?:\/(comments|timeline|reviews))?\/?$/.exec(ctx.path)
      if (!m) return fail(404, 'Not Found', DOCS, h)
      const [, owner, repo, kind, num, sub] = m as unknown as [
        string,
        string,
        string,
        'issues' | 'pulls',
        string,
        string | undefined,
      ]
      if (kind === 'issues' && sub === 'reviews') return fail(404, 'Not Found', DOCS, h)
      if (kind === 'pulls' && sub === 'timeline') return fail(404, 'Not Found', DOCS, h)
      const stored = issues.get(issueKey(owner, repo, Number(num)))
      const docs = `${DOCS}/${kind === 'pulls' ? 'pulls/pulls#get-a-pull-request' : 'issues/issues#get-an-issue'}`
      if (!stored) return fail(404, 'Not Found', docs, h)
      const { spec } = stored
      if (spec.movedTo) {
        const to = `${ctx.baseUrl}/repos/${spec.movedTo.owner}/${spec.movedTo.repo}/${kind}/${spec.movedTo.number}${sub ? `/${sub}` : ''}${ctx.query.size ? `?${ctx.query}` : ''}`
        return {
          status: 301,
          headers: { ...h, location: to },
          body: {
            message: 'Moved Permanently',
            url: to,
            documentation_url: `${DOCS}/guides/best-practices-for-using-the-rest-api#follow-redirects`,
          },
        }
      }
      if (spec.gone === 410) return fail(410, 'This issue was deleted', docs, h)
      if (spec.gone === 404) return fail(404, 'Not Found', docs, h)
      if (kind === 'pulls' && !spec.isPull) return fail(404, 'Not Found', docs, h)
      const api = ctx.baseUrl
      if (!sub)
        return { status: 200, headers: h, body: kind === 'pulls' ? pullJson(stored, api) : issueJson(stored, api) }
      if (sub === 'comments')
        return paginate(
          ctx,
          kind === 'pulls' ? reviewCommentsJson(stored, api) : commentsJson(stored, api),
          h,
          spec.paging,
        )
      if (sub === 'reviews') return paginate(ctx, reviewsJson(stored, api), h, spec.paging)
      const timeline =
        stored.timeline ?? generatedTimeline(spec, typeof spec.timeline === 'number' ? spec.timeline : 0, api)
      return paginate(ctx, timeline, h, spec.paging)
    },
    error: errorFor,
  }
}
