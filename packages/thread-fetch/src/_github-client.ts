import { setTimeout as sleep } from 'node:timers/promises'
import { type Env, ProviderError } from '@search-layer/core'
import { resolveConfig } from '@search-layer/core/config'
import { type HttpErrorResponse, requestJson, resetDelayMs, timerMs, upstreamTimeAt } from '@search-layer/core/http'
import { z } from 'zod'
import { readGhToken } from './_gh-token.js'
import { type GithubTarget, webHostOf } from './_github-url.js'
import { createLimiter } from './_limit.js'
import { DEFAULTS, type FetchThreadOptions } from './_options.js'
import { readRefs } from './_read-refs.js'
import { mergeRefs } from './refs.js'
import { timelineRefs } from './timeline.js'
import type { Ref, Thread, ThreadComment } from './types.js'

const SERVICE = 'github'
const PER_PAGE = 100
const MAX_RATE_LIMIT_WAITS = 3
const MAX_REDIRECTS = 3
// GitHub asks clients to wait at least a minute after a secondary limit that came without Retry-After.
const SECONDARY_DEFAULT_WAIT_MS = 60_000

const UserSchema = z.looseObject({ login: z.string() }).nullable().optional()
const LabelSchema = z.union([z.string(), z.looseObject({ name: z.string() })])
const ReactionsSchema = z.record(z.string(), z.unknown()).optional()

const IssueSchema = z.looseObject({
  url: z.string(),
  repository_url: z.string().optional(),
  html_url: z.string(),
  number: z.number().int(),
  title: z.string(),
  body: z.string().nullable().optional(),
  state: z.string(),
  state_reason: z.string().nullable().optional(),
  user: UserSchema,
  labels: z.array(LabelSchema).default([]),
  comments: z.number().int().nonnegative().default(0),
  created_at: z.string().nullable().optional(),
  updated_at: z.string().nullable().optional(),
  closed_at: z.string().nullable().optional(),
  locked: z.boolean().optional(),
  reactions: ReactionsSchema,
  pull_request: z.looseObject({ merged_at: z.string().nullable().optional() }).optional(),
})
type Issue = z.infer<typeof IssueSchema>

const CommentSchema = z.looseObject({
  id: z.number(),
  body: z.string().nullable().optional(),
  user: UserSchema,
  created_at: z.string().nullable().optional(),
  html_url: z.string().optional(),
  reactions: ReactionsSchema,
})
const ReviewSchema = z.looseObject({
  id: z.number(),
  body: z.string().nullable().optional(),
  state: z.string(),
  user: UserSchema,
  submitted_at: z.string().nullable().optional(),
  html_url: z.string().optional(),
})
const ReviewCommentSchema = z.looseObject({
  id: z.number(),
  body: z.string().nullable().optional(),
  path: z.string(),
  line: z.number().nullable().optional(),
  user: UserSchema,
  created_at: z.string().nullable().optional(),
  html_url: z.string().optional(),
})
const PullSchema = z.looseObject({
  merged: z.boolean().optional(),
  merged_at: z.string().nullable().optional(),
  merge_commit_sha: z.string().nullable().optional(),
  draft: z.boolean().optional(),
  head: z.looseObject({ ref: z.string(), sha: z.string() }).optional(),
  base: z.looseObject({ ref: z.string() }).optional(),
  commits: z.number().optional(),
  additions: z.number().optional(),
  deletions: z.number().optional(),
  changed_files: z.number().optional(),
})

export interface Ctx {
  baseUrl: string
  token?: string
  signal?: AbortSignal
  deadlineAt: number
  env: Env
  timeoutMs: number
  maxBytes: number
  limit: <T>(task: () => Promise<T>) => Promise<T>
  requests: number
  rateLimitWaits: number
  /** What the caller should know about a read that went on anyway (a pagination link that was not followed). */
  warnings: string[]
  rateLimit?: { limit?: number; remaining?: number; resetAt?: string }
}

/** Base URL and token for GitHub: options, env/config (core), then `gh`'s hosts.yml for the matching host only. */
export function githubAuth(options: FetchThreadOptions): { baseUrl: string; token?: string; tokenSource?: string } {
  const env = options.env ?? process.env
  const config = resolveConfig({
    env,
    ...(options.homeDir !== undefined && { homeDir: options.homeDir }),
    overrides: {
      github: {
        ...(options.githubToken && { apiKey: options.githubToken }),
        ...(options.githubBaseUrl && { baseUrl: options.githubBaseUrl }),
      },
    },
  }).github
  if (config.apiKey)
    return {
      baseUrl: config.baseUrl,
      token: config.apiKey,
      ...(config.apiKeySource && { tokenSource: config.apiKeySource }),
    }
  // gh's token belongs to one host: never send it to a base URL of another (a test server, a proxy).
  const host = webHostOf(config.baseUrl)
  const token = host
    ? readGhToken(host, { env, ...(options.homeDir !== undefined && { homeDir: options.homeDir }) })
    : undefined
  return { baseUrl: config.baseUrl, ...(token && { token, tokenSource: 'gh:hosts.yml' }) }
}

export function makeCtx(options: FetchThreadOptions, auth: { baseUrl: string; token?: string }): Ctx {
  return {
    baseUrl: auth.baseUrl.replace(/\/+$/, ''),
    ...(auth.token && { token: auth.token }),
    ...(options.signal && { signal: options.signal }),
    deadlineAt: Date.now() + (options.deadlineMs ?? DEFAULTS.deadlineMs),
    env: options.env ?? process.env,
    timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs,
    maxBytes: options.maxBytes ?? DEFAULTS.maxBytes,
    limit: createLimiter(options.concurrency ?? DEFAULTS.concurrency),
    requests: 0,
    rateLimitWaits: 0,
    warnings: [],
  }
}

interface GhResponse<T> {
  data: T
  headers: Readonly<Record<string, string>>
  /** The URL that answered, after following GitHub's 301s for transferred or renamed resources. */
  url: string
}

/** One GitHub call (GET, or POST with `json` for GraphQL): follows 301/307 within the API origin, waits out rate limits that reset before the deadline. */
export async function ghGet<T>(
  ctx: Ctx,
  pathOrUrl: string,
  schema: z.ZodType<T>,
  query?: Record<string, number>,
  json?: unknown,
): Promise<GhResponse<T>> {
  let url = pathOrUrl.startsWith('http') ? pathOrUrl : `${ctx.baseUrl}${pathOrUrl}`
  // The token goes with every call: never to an origin other than the configured API's.
  if (!sameOrigin(url, ctx.baseUrl))
    throw new ProviderError(`Refusing to send a GitHub request outside ${originOf(ctx.baseUrl)}`, {
      kind: 'upstream',
      provider: SERVICE,
      code: 'other_origin',
      retryable: false,
    })
  for (let redirects = 0; ; ) {
    let location: string | undefined
    try {
      const res = await ctx.limit(() => {
        ctx.requests++
        return requestJson<T>({
          service: SERVICE,
          url,
          ...(query && { query }),
          ...(json !== undefined && { method: 'POST' as const, json }),
          headers: {
            accept: 'application/vnd.github+json',
            'x-github-api-version': '2022-11-28',
            'user-agent': 'search-layer-thread-fetch',
            ...(ctx.token && { authorization: `Bearer ${ctx.token}` }),
          },
          schema,
          timeoutMs: ctx.timeoutMs,
          maxBytes: ctx.maxBytes,
          deadlineAt: ctx.deadlineAt,
          ...(ctx.signal && { signal: ctx.signal }),
          env: ctx.env,
          secrets: [ctx.token],
          mapError: (r) => {
            if ([301, 302, 307, 308].includes(r.status) && r.headers.location) location = r.headers.location
            return mapGithubError(r, url, ctx.token)
          },
        })
      })
      noteRateLimit(ctx, res.headers)
      return { data: res.data, headers: res.headers, url }
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error
      if (location !== undefined && error.code === 'moved') {
        const next = new URL(location, url)
        if (next.origin !== new URL(ctx.baseUrl).origin || ++redirects > MAX_REDIRECTS) {
          throw new ProviderError(`GitHub redirected to another origin or too often (${next.origin}); not followed`, {
            kind: 'upstream',
            provider: SERVICE,
            status: error.status,
            code: 'moved',
            retryable: false,
          })
        }
        // The Location of a moved list keeps our query (page, per_page); drop it so `query` is not doubled.
        next.search = query ? '' : next.search
        url = next.toString()
        continue
      }
      if (error.kind === 'rate_limited') {
        const waitMs = error.retryAfterMs ?? SECONDARY_DEFAULT_WAIT_MS
        if (ctx.rateLimitWaits < MAX_RATE_LIMIT_WAITS && Date.now() + waitMs + 50 < ctx.deadlineAt) {
          ctx.rateLimitWaits++
          try {
            await sleep(timerMs(waitMs), undefined, ctx.signal ? { signal: ctx.signal } : undefined)
          } catch {
            throw new ProviderError('GitHub call was cancelled while waiting for the rate limit', {
              kind: 'timeout',
              provider: SERVICE,
              retryable: false,
            })
          }
          continue
        }
        throw new ProviderError(
          `${error.message}; the limit resets in ${Math.ceil(waitMs / 1000)}s, after the deadline${ctx.token ? '' : ' (set GITHUB_TOKEN or GH_TOKEN for 5000 requests/hour)'}`,
          {
            kind: 'rate_limited',
            provider: SERVICE,
            ...(error.status !== undefined && { status: error.status }),
            ...(error.code !== undefined && { code: error.code }),
            retryAfterMs: waitMs,
            retryable: true,
            secrets: [ctx.token],
          },
        )
      }
      throw error
    }
  }
}

export function noteRateLimit(ctx: Ctx, headers: Readonly<Record<string, string>>): void {
  const remaining = Number(headers['x-ratelimit-remaining'])
  if (!Number.isFinite(remaining)) return
  // A reset no date can hold (400 digits, year 9999) is left out rather than thrown from `toISOString`.
  const resetAt = upstreamTimeAt(Number(headers['x-ratelimit-reset']) * 1000, Date.now())
  ctx.rateLimit = {
    remaining,
    ...(Number.isFinite(Number(headers['x-ratelimit-limit'])) && { limit: Number(headers['x-ratelimit-limit']) }),
    ...(resetAt !== undefined && { resetAt: new Date(resetAt).toISOString() }),
  }
}

export function mapGithubError(r: HttpErrorResponse, url: string, token: string | undefined): ProviderError {
  const message =
    typeof (r.json as { message?: unknown })?.message === 'string' ? (r.json as { message: string }).message : ''
  const what = describeApiUrl(url)
  const base = { provider: SERVICE, status: r.status, secrets: [token] }
  if ([301, 302, 307, 308].includes(r.status))
    return new ProviderError(`GitHub moved ${what}`, { ...base, kind: 'upstream', code: 'moved', retryable: false })
  const remaining = r.headers['x-ratelimit-remaining']
  const secondary = /secondary rate limit|abuse/i.test(message)
  if (r.status === 429 || (r.status === 403 && (remaining === '0' || secondary || r.retryAfterMs !== undefined))) {
    const resetText = r.headers['x-ratelimit-reset']?.trim()
    const resetMs = resetText ? resetDelayMs(Number(resetText), Date.now()) : undefined
    const untilReset = resetMs === undefined ? undefined : Math.max(1000, resetMs)
    const waitMs =
      r.retryAfterMs ?? (remaining === '0' && !secondary ? untilReset : undefined) ?? SECONDARY_DEFAULT_WAIT_MS
    return new ProviderError(
      `GitHub ${secondary ? 'secondary ' : ''}rate limit hit (HTTP ${r.status}) reading ${what}`,
      {
        ...base,
        kind: 'rate_limited',
        code: secondary ? 'secondary_rate_limit' : 'rate_limit',
        retryAfterMs: waitMs,
        // ghGet decides whether the wait fits in the deadline; requestJson must not retry on its own.
        retryable: false,
      },
    )
  }
  if (r.status === 401)
    return new ProviderError(`GitHub rejected the token (HTTP 401${message ? `: ${message}` : ''})`, {
      ...base,
      kind: 'auth',
    })
  if (r.status === 403)
    return new ProviderError(`GitHub refused access to ${what} (HTTP 403${message ? `: ${message}` : ''})`, {
      ...base,
      kind: 'auth',
    })
  if (r.status === 404)
    return new ProviderError(
      `GitHub has no ${what}: it is missing or private${token ? ' to this token' : ' (a token with access may help)'}`,
      { ...base, kind: 'upstream', code: 'not_found', retryable: false },
    )
  if (r.status === 410)
    return new ProviderError(`GitHub ${what} was deleted (HTTP 410)`, {
      ...base,
      kind: 'upstream',
      code: 'gone',
      retryable: false,
    })
  if (r.status >= 500)
    return new ProviderError(`GitHub server error (HTTP ${r.status}) reading ${what}`, { ...base, kind: 'upstream' })
  return new ProviderError(`GitHub refused ${what} (HTTP ${r.status}${message ? `: ${message}` : ''})`, {
    ...base,
    kind: 'upstream',
    retryable: false,
  })
}

function describeApiUrl(url: string): string {
  const m = /\/repos\/([^/]+)\/([^/]+)\/(issues|pulls)\/(\d+)(?:\/(\w+))?/.exec(url)
  if (!m) return 'the resource'
  return `${m[3] === 'pulls' ? 'pull request' : 'issue'} ${m[1]}/${m[2]}#${m[4]}${m[5] ? ` (${m[5]})` : ''}`
}

/** Whether `url` is on the same scheme, host and port as `base`; false for anything that does not parse. */
function sameOrigin(url: string, base: string): boolean {
  const a = originOf(url)
  return a !== undefined && a === originOf(base)
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin
  } catch {
    return undefined
  }
}

/**
 * `rel` → URL of a `Link` header (`<url>; rel="next", <url>; rel="last"`). It comes from the network, so each
 * link is cut with indexOf: no pattern that re-reads a run of `<` per character.
 */
function parseLink(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {}
  if (!header) return out
  for (const part of header.split(',')) {
    const open = part.indexOf('<')
    const close = open === -1 ? -1 : part.indexOf('>', open + 1)
    if (close <= open + 1) continue
    const rel = /;\s*rel="([^"]+)"/.exec(part.slice(close + 1))?.[1]
    if (rel) for (const name of rel.trim().split(/\s+/)) out[name] = part.slice(open + 1, close)
  }
  return out
}

function pageOf(url: string | undefined): number | undefined {
  if (!url) return undefined
  try {
    const p = Number(new URL(url).searchParams.get('page'))
    return Number.isInteger(p) && p > 0 ? p : undefined
  } catch {
    return undefined
  }
}

/** A Link target resolved against the URL that sent it (RFC 8288 allows relative ones). */
function resolveLink(target: string, base: string): string | undefined {
  try {
    return new URL(target, base).toString()
  } catch {
    return undefined
  }
}

interface Paged<T> {
  items: T[]
  /** Items that exist beyond what was read, when known (or at least one more page when only `next` says so). */
  cut: number
}

/**
 * Every page of a list, 100 at a time. When the size is known (the issue's `comments`, or the first page's `last`
 * link) the remaining pages are fetched in parallel; otherwise `next` links are followed one by one.
 */
async function ghPaged<T>(
  ctx: Ctx,
  path: string,
  schema: z.ZodType<T>,
  maxItems: number,
  knownCount?: number,
): Promise<Paged<T>> {
  const arraySchema = z.array(schema)
  const maxPages = Math.max(1, Math.ceil(maxItems / PER_PAGE))
  const get = (page: number) => ghGet(ctx, path, arraySchema, { per_page: PER_PAGE, page })
  let pages: GhResponse<T[]>[]
  if (knownCount !== undefined) {
    const count = Math.min(maxPages, Math.max(1, Math.ceil(knownCount / PER_PAGE)))
    pages = await Promise.all(Array.from({ length: count }, (_, i) => get(i + 1)))
  } else {
    const first = await get(1)
    const last = pageOf(parseLink(first.headers.link).last)
    const rest = last ? Math.min(last, maxPages) : 1
    pages = [first, ...(await Promise.all(Array.from({ length: Math.max(0, rest - 1) }, (_, i) => get(i + 2))))]
  }
  // The list may have grown since the count was read, or the server gave only `next`: follow it.
  let links = parseLink(pages.at(-1)?.headers.link)
  let answeredBy = pages.at(-1)!.url
  while (links.next && pages.length < maxPages) {
    const nextUrl = resolveLink(links.next, answeredBy)
    if (nextUrl === undefined || !sameOrigin(nextUrl, ctx.baseUrl)) {
      // As with redirects: a next page elsewhere would take the token with it. Stop; `cut` says more exist.
      ctx.warnings.push(
        `GitHub's next page of ${path} is ${nextUrl === undefined ? 'not a URL' : `on another origin (${originOf(nextUrl)})`}; not followed`,
      )
      break
    }
    const next = await ghGet(ctx, nextUrl, arraySchema)
    pages.push(next)
    answeredBy = next.url
    links = parseLink(next.headers.link)
  }
  const all = pages.flatMap((p) => p.data)
  const items = all.slice(0, maxItems)
  const lastPage = pageOf(links.last)
  const known = knownCount ?? (lastPage !== undefined ? Math.max(all.length, (lastPage - 1) * PER_PAGE + 1) : undefined)
  const cut = Math.max(
    all.length - items.length,
    known !== undefined ? known - items.length : 0,
    links.next && !known ? 1 : 0,
  )
  return { items, cut }
}

const login = (u: { login: string } | null | undefined) => u?.login ?? null

function reactionsOf(r: Record<string, unknown> | undefined): Record<string, number> | undefined {
  if (!r) return undefined
  const out: Record<string, number> = {}
  for (const [k, v] of Object.entries(r)) if (typeof v === 'number' && v > 0) out[k] = v
  return out
}

function targetFromIssue(issue: Issue, fallback: GithubTarget): GithubTarget {
  const m =
    /\/repos\/([^/]+)\/([^/]+)$/.exec(issue.repository_url ?? '') ??
    /github\.com\/([^/]+)\/([^/]+)\//.exec(issue.html_url)
  return m ? { owner: m[1]!, repo: m[2]!, kind: issue.pull_request ? 'pull' : 'issue', number: issue.number } : fallback
}

/** Reads a whole GitHub issue or pull request: comments, reviews, review comments, timeline, typed references. */
export async function fetchGithubIssue(
  target: GithubTarget,
  url: string,
  options: FetchThreadOptions,
): Promise<Thread> {
  const auth = githubAuth(options)
  const ctx = makeCtx(options, auth)
  const maxComments = Math.max(0, options.maxComments ?? DEFAULTS.maxComments)
  const maxTimeline = Math.max(1, options.maxTimelineEvents ?? DEFAULTS.maxTimelineEvents)
  const contextChars = options.contextChars ?? DEFAULTS.contextChars

  const issueRes = await ghGet(ctx, `/repos/${target.owner}/${target.repo}/issues/${target.number}`, IssueSchema)
  const issue = issueRes.data
  const here = targetFromIssue(issue, target)
  const repo = `${here.owner}/${here.repo}`
  const api = `/repos/${here.owner}/${here.repo}`
  const isPull = issue.pull_request !== undefined
  const movedFrom =
    `${target.owner}/${target.repo}#${target.number}`.toLowerCase() !== `${repo}#${here.number}`.toLowerCase()
      ? `${target.owner}/${target.repo}#${target.number}`
      : undefined

  const [comments, timeline, pull, reviews, reviewComments] = await Promise.all([
    maxComments > 0
      ? ghPaged(ctx, `${api}/issues/${here.number}/comments`, CommentSchema, maxComments, issue.comments)
      : Promise.resolve({ items: [], cut: issue.comments }),
    ghPaged(ctx, `${api}/issues/${here.number}/timeline`, z.unknown(), maxTimeline),
    isPull ? ghGet(ctx, `${api}/pulls/${here.number}`, PullSchema) : undefined,
    isPull && maxComments > 0
      ? ghPaged(ctx, `${api}/pulls/${here.number}/reviews`, ReviewSchema, maxComments)
      : undefined,
    isPull && maxComments > 0
      ? ghPaged(ctx, `${api}/pulls/${here.number}/comments`, ReviewCommentSchema, maxComments)
      : undefined,
  ])

  const threadComments: ThreadComment[] = [
    ...comments.items.map((c) => ({
      id: String(c.id),
      kind: 'comment' as const,
      author: login(c.user),
      body: c.body ?? '',
      createdAt: c.created_at ?? null,
      ...(c.html_url && { url: c.html_url }),
    })),
    ...(reviews?.items ?? []).map((r) => ({
      id: String(r.id),
      kind: 'review' as const,
      author: login(r.user),
      body: r.body ?? '',
      createdAt: r.submitted_at ?? null,
      reviewState: r.state,
      ...(r.html_url && { url: r.html_url }),
    })),
    ...(reviewComments?.items ?? []).map((c) => ({
      id: String(c.id),
      kind: 'review_comment' as const,
      author: login(c.user),
      body: c.body ?? '',
      createdAt: c.created_at ?? null,
      path: c.path,
      line: c.line ?? null,
      ...(c.html_url && { url: c.html_url }),
    })),
  ]

  const summary = timelineRefs(timeline.items, { repo, contextChars })
  const selfKey = `github:${repo.toLowerCase()}#${here.number}`
  const found: Ref[] = [
    ...(await readRefs([
      { text: issue.body ?? '', options: { repo, source: 'body', contextChars } },
      ...threadComments.map((c) => ({ text: c.body, options: { repo, source: `${c.kind}:${c.id}`, contextChars } })),
    ])),
    ...summary.refs,
  ]
  const refs = mergeRefs(found).filter((r) => r.key !== selfKey)

  const pr = pull?.data
  const merged = Boolean(pr?.merged || pr?.merged_at || issue.pull_request?.merged_at)
  const truncated: Record<string, { returned: number; cut: number }> = {}
  if (comments.cut > 0) truncated.comments = { returned: comments.items.length, cut: comments.cut }
  if (reviews && reviews.cut > 0) truncated.reviews = { returned: reviews.items.length, cut: reviews.cut }
  if (reviewComments && reviewComments.cut > 0)
    truncated.reviewComments = { returned: reviewComments.items.length, cut: reviewComments.cut }
  if (timeline.cut > 0) truncated.timeline = { returned: timeline.items.length, cut: timeline.cut }

  return {
    url: issue.html_url,
    type: isPull ? 'github_pr' : 'github_issue',
    title: issue.title,
    body: issue.body ?? '',
    state: merged ? 'merged' : issue.state,
    labels: issue.labels.map((l) => (typeof l === 'string' ? l : l.name)),
    comments: threadComments,
    refs,
    links: [],
    metadata: {
      repo,
      number: here.number,
      requestedUrl: url,
      author: login(issue.user),
      createdAt: issue.created_at ?? null,
      updatedAt: issue.updated_at ?? null,
      closedAt: issue.closed_at ?? null,
      ...(issue.state_reason && { stateReason: issue.state_reason }),
      ...(reactionsOf(issue.reactions) && { reactions: reactionsOf(issue.reactions) }),
      commentCount: issue.comments,
      ...(movedFrom && { movedFrom }),
      ...(Object.keys(truncated).length > 0 && { truncated }),
      timeline: { events: summary.events, byType: summary.byType },
      ...(summary.closedBy && { closedBy: summary.closedBy }),
      ...(summary.markedDuplicate !== undefined && { markedDuplicate: summary.markedDuplicate }),
      ...(summary.renamed && { renamed: summary.renamed }),
      ...(pr && {
        pull: {
          merged,
          mergedAt: pr.merged_at ?? null,
          mergeCommit: pr.merge_commit_sha ?? summary.mergeCommit ?? null,
          draft: pr.draft ?? false,
          head: pr.head ? { ref: pr.head.ref, sha: pr.head.sha } : null,
          base: pr.base?.ref ?? null,
          commits: pr.commits,
          additions: pr.additions,
          deletions: pr.deletions,
          changedFiles: pr.changed_files,
        },
      }),
      requests: ctx.requests,
      ...(ctx.warnings.length > 0 && { warnings: ctx.warnings }),
      ...(ctx.rateLimitWaits > 0 && { rateLimitWaits: ctx.rateLimitWaits }),
      ...(ctx.rateLimit && { rateLimit: ctx.rateLimit }),
      authenticated: Boolean(ctx.token),
    },
  }
}
