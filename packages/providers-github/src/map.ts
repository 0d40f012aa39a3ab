import { z } from 'zod'
import {
  type ParsedProviderRequest,
  ProviderError,
  type RateLimitInfo,
  type SearchResult,
  collectResults,
  isoDate,
  plainText,
  queryWithOperators,
} from '@search-layer/core'
import { type HttpErrorResponse, retryHint, resetDelayMs } from '@search-layer/core/http'
import {
  githubErrorSchema,
  type GithubIssueItem,
  GithubIssueItemSchema,
  GithubRepositoryItemSchema,
  type GithubSearchResponse,
} from './schema.js'

const RepositoryWithUrlSchema = GithubRepositoryItemSchema.extend({ url: z.string() })
const IssueWithUrlSchema = GithubIssueItemSchema.extend({ url: z.string() })

/** What to search: repositories, or issues (bug reports and their status). */
export type GithubSearchKind = 'repositories' | 'issues'

/** GitHub serves at most 100 items a page. */
const GITHUB_MAX_PER_PAGE = 100
const SNIPPET_MAX_CHARS = 400
// GitHub asks clients hit by a secondary limit without Retry-After to wait at least a minute.
const SECONDARY_WAIT_MS = 60_000

// Words of someone chasing a bug or asking whether something is fixed: their answers live in issues.
const ISSUE_QUERY =
  /\b(?:bugs?|issues?|errors?|exceptions?|crash(es|ed|ing)?|panic(s|ked)?|fail(s|ed|ing|ure)?|broken|regression|segfault|traceback|stack ?trace|not working|doesn'?t work|won'?t|workaround|fixed|status|deprecat\w*)\b/i
// `TypeError: …`, `NullPointerException`: a pasted error names itself.
const ERROR_NAME = /[a-z](?:Error|Exception)\b/

/** `issues` for bug and status queries, `repositories` otherwise; `kind` forces one. */
export function githubSearchKind(query: string, kind?: GithubSearchKind): GithubSearchKind {
  return kind ?? (ISSUE_QUERY.test(query) || ERROR_NAME.test(query) ? 'issues' : 'repositories')
}

const WINDOW_DAYS = { pd: 1, pw: 7, pm: 31, py: 365 } as const
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10)

/** Freshness as a qualifier: `pushed:` for repositories, `updated:` for issues. */
function githubDateQualifier(
  kind: GithubSearchKind,
  freshness: ParsedProviderRequest['freshness'],
  now: Date,
): string | undefined {
  if (freshness === undefined) return undefined
  const field = kind === 'repositories' ? 'pushed' : 'updated'
  if (typeof freshness === 'object') return `${field}:${freshness.from}..${freshness.to}`
  return `${field}:>=${day(now.getTime() - WINDOW_DAYS[freshness] * 86_400_000)}`
}

/**
 * The query string: the text with its phrases quoted, plus qualifiers (`is:issue`, date); `per_page` = `num` capped
 * at 100. Excluded terms are left to the engine's enforcement: GitHub's `-` negates qualifiers only.
 */
export function buildGithubQuery(
  kind: GithubSearchKind,
  request: Pick<ParsedProviderRequest, 'query' | 'num' | 'freshness' | 'phrases'>,
  now: Date,
): { q: string; per_page: number } {
  const qualifiers = [kind === 'issues' ? 'is:issue' : undefined, githubDateQualifier(kind, request.freshness, now)]
  return {
    q: [queryWithOperators({ query: request.query, phrases: request.phrases }), ...qualifiers]
      .filter(Boolean)
      .join(' '),
    per_page: Math.min(request.num, GITHUB_MAX_PER_PAGE),
  }
}

/** Normalised results plus how many items were unusable. */
export interface MappedResults {
  results: SearchResult[]
  dropped: number
}

type Filters = Pick<ParsedProviderRequest, 'num' | 'includeDomains' | 'excludeDomains'>

const withPageUrl = (items: readonly unknown[]) =>
  items.map((item) =>
    item && typeof item === 'object' && 'html_url' in item
      ? { ...item, url: (item as { html_url: unknown }).html_url }
      : item,
  )

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text
}

/** Repositories: `owner/name`, the description as snippet, `pushed_at` as date; stars, language… in `extra`. */
export function mapGithubRepositories(response: GithubSearchResponse, request: Filters): MappedResults {
  return collectResults(
    withPageUrl(response.items),
    RepositoryWithUrlSchema,
    (repo, { url, rank }) => {
      const extra: Record<string, unknown> = { type: 'repository', stars: repo.stargazers_count ?? 0 }
      if (repo.language) extra.language = repo.language
      if (repo.pushed_at) extra.pushedAt = isoDate(repo.pushed_at)
      if (typeof repo.forks_count === 'number') extra.forks = repo.forks_count
      if (repo.topics?.length) extra.topics = repo.topics
      if (repo.archived) extra.archived = true
      if (repo.license?.spdx_id) extra.license = repo.license.spdx_id
      return {
        title: plainText(repo.full_name),
        url,
        snippet: truncate(plainText(repo.description), SNIPPET_MAX_CHARS),
        publishedAt: isoDate(repo.pushed_at) ?? isoDate(repo.updated_at),
        provider: 'github',
        rank,
        extra,
      }
    },
    { filters: request, limit: request.num },
  )
}

function repositoryName(item: GithubIssueItem): string | undefined {
  const m =
    /\/repos\/([^/]+\/[^/]+)$/.exec(item.repository_url ?? '') ?? /github\.com\/([^/]+\/[^/]+)\//.exec(item.html_url)
  return m?.[1]
}

/** Issues: the title, the start of the body as snippet, creation as date; repository, state, labels in `extra`. */
export function mapGithubIssues(response: GithubSearchResponse, request: Filters): MappedResults {
  return collectResults(
    withPageUrl(response.items),
    IssueWithUrlSchema,
    (item, { url, rank }) => {
      const repository = repositoryName(item)
      const labels = (item.labels ?? []).map((l) => l.name).filter((n): n is string => Boolean(n))
      const extra: Record<string, unknown> = {
        type: item.pull_request ? 'pull_request' : 'issue',
        number: item.number,
        state: item.state ?? 'open',
        comments: item.comments ?? 0,
      }
      if (repository) extra.repository = repository
      if (labels.length) extra.labels = labels
      if (item.state_reason) extra.stateReason = item.state_reason
      if (item.updated_at) extra.updatedAt = isoDate(item.updated_at)
      if (item.closed_at) extra.closedAt = isoDate(item.closed_at)
      return {
        title: plainText(item.title),
        url,
        snippet: truncate(plainText(item.body), SNIPPET_MAX_CHARS),
        publishedAt: isoDate(item.created_at),
        provider: 'github',
        rank,
        extra,
      }
    },
    { filters: request, limit: request.num },
  )
}

/** `x-ratelimit-*` (the search window: 30/min with a token, 10 without) as `RateLimitInfo`. */
export function parseGithubRateLimit(
  headers: Readonly<Record<string, string>>,
  now: number = Date.now(),
): RateLimitInfo | undefined {
  const limit = Number(headers['x-ratelimit-limit'])
  const remaining = Number(headers['x-ratelimit-remaining'])
  if (!Number.isFinite(limit) && !Number.isFinite(remaining)) return undefined
  const resetMs = resetDelayOf(headers, now)
  return {
    ...(Number.isFinite(limit) && { limit }),
    ...(Number.isFinite(remaining) && { remaining }),
    ...(resetMs !== undefined && { resetMs }),
  }
}

// `x-ratelimit-reset` is a Unix time in seconds; one that is missing, malformed or absurd (year 9999) gives no wait.
function resetDelayOf(headers: Readonly<Record<string, string>>, now: number): number | undefined {
  const text = headers['x-ratelimit-reset']?.trim()
  return text ? resetDelayMs(Number(text), now) : undefined
}

/**
 * GitHub's errors. Rate limits come as 403 or 429: the primary one (`x-ratelimit-remaining: 0`, wait until
 * `x-ratelimit-reset`) and the secondary/abuse one (wait `Retry-After`, else a minute), both `rate_limited`.
 * 401 and other 403s are `auth`; 422 (a query GitHub cannot run) is `bad_request`.
 */
export function mapGithubError(
  response: HttpErrorResponse,
  secrets: readonly string[] = [],
  now: number = Date.now(),
): ProviderError | undefined {
  const body = githubErrorSchema().safeParse(response.json)
  const message = body.success ? plainText(body.data.message) : ''
  const detail = message ? `: ${message}` : ''
  const base = { provider: 'github', status: response.status, secrets }
  if (response.status === 403 || response.status === 429) {
    const secondary = /secondary rate limit|abuse/i.test(message)
    const exhausted = response.headers['x-ratelimit-remaining'] === '0'
    if (secondary || exhausted || response.status === 429) {
      const untilReset = exhausted ? resetDelayOf(response.headers, now) : undefined
      const retryAfterMs =
        response.retryAfterMs ?? (untilReset !== undefined ? untilReset : secondary ? SECONDARY_WAIT_MS : undefined)
      const which = secondary ? 'secondary rate limit' : 'rate limit'
      return new ProviderError(`github ${which} hit (HTTP ${response.status})${detail}${retryHint(retryAfterMs)}`, {
        ...base,
        kind: 'rate_limited',
        code: secondary ? 'secondary_rate_limit' : 'rate_limit',
        retryAfterMs,
      })
    }
  }
  if (response.status === 401 || response.status === 403)
    return new ProviderError(
      `github rejected the token (HTTP ${response.status})${detail}; check GITHUB_TOKEN / GH_TOKEN or unset it to search without one`,
      { ...base, kind: 'auth' },
    )
  if (response.status === 422) {
    const first = body.success ? plainText(body.data.errors?.[0]?.message) : ''
    return new ProviderError(`github could not run the search (HTTP 422)${detail}${first ? ` (${first})` : ''}`, {
      ...base,
      kind: 'bad_request',
    })
  }
  return undefined
}
