import type { Reply, RouteContext, ServiceRoutes } from '../_types.js'
import { digest, hashInt } from '../_util.js'
import type { GithubIssueSpec } from '../types.js'
import { githubSearch, searchRateHeaders } from './github-search.js'

const DOCS = 'https://docs.github.com/rest'
const USERS = ['octocat', 'hubot', 'monalisa', 'defunkt', 'mojombo', 'jlord', 'kdaigle', 'dependabot[bot]']
const BASE_TIME = Date.parse('2026-03-02T10:00:00Z')
const HOUR = 3_600_000

function user(login: string) {
  const id = (hashInt(`user\u0000${login}`) % 9_000_000) + 1000
  return {
    login,
    id,
    node_id: `MDQ6VXNlcj${Buffer.from(String(id)).toString('base64')}`,
    avatar_url: `https://avatars.githubusercontent.com/u/${id}?v=4`,
    html_url: `https://github.com/${login}`,
    type: login.endsWith('[bot]') ? 'Bot' : 'User',
    site_admin: false,
  }
}

function iso(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')
}

// Bodies mix every reference style a link extractor must handle.
const COMMENT_TEMPLATES = [
  (i: number) => `Fixes #${45 + (i % 5)} — the panic came from the reconnect path.`,
  () => 'Duplicate of #17',
  () => 'This looks related, see octo/other#12 for the upstream discussion.',
  () => 'Probably caused by GH-9; bisecting now.',
  (i: number) => `Bisected to ${digest(`sha${i}`, 40)}, reverting that commit fixes it for me.`,
  () => 'Full context: https://github.com/octo/demo/issues/7 and the follow-up PR https://github.com/octo/demo/pull/8',
  (i: number) => `The fix landed in https://github.com/octo/demo/commit/${digest(`fix${i}`, 40)} :tada:`,
  () =>
    'Docs say otherwise: [the timeline docs](https://docs.github.com/en/rest/issues/timeline#list-timeline-events-for-an-issue).',
  () => 'Reproducer running at http://localhost:8080/debug?trace=1&verbose=true (port 8080, query params matter).',
  () => '+1, same on macOS 15 with Node 20.19.',
  (i: number) => `Short SHA ${digest(`short${i}`, 7)} from the release branch also has it.`,
  () =>
    '```\nError: socket hang up\n    at connResetException (node:internal/errors:720:14)\n```\nStill happening on main.',
]

interface StoredIssue {
  spec: GithubIssueSpec
  comments: { body: string; user: string }[]
  timeline: unknown[] | undefined
}

function key(owner: string, repo: string, n: number): string {
  return `${owner.toLowerCase()}/${repo.toLowerCase()}#${n}`
}

/** The issues served by default: octo/demo#1 (150 comments, ~40 timeline events), #2 (merged PR), #3 (410), #5 (moved). */
function seedIssues(): GithubIssueSpec[] {
  return [
    {
      owner: 'octo',
      repo: 'demo',
      number: 1,
      title: 'Client hangs forever when the server resets the connection mid-response',
      body: 'Steps to reproduce:\n\n1. Start the server with `--port 8080`\n2. Kill it while a request is streaming\n3. The client never returns\n\nSeems related to #17 and octo/other#12. Stack trace in https://gist.github.com/octocat/6cad326836d38bd3a7ae.',
      comments: 150,
      timeline: 40,
      labels: ['bug', 'needs-triage', 'area/networking'],
      state: 'closed',
    },
    {
      owner: 'octo',
      repo: 'demo',
      number: 2,
      title: 'Add a deadline to every outbound request',
      body: 'Closes #1.\n\nEvery request now runs under `AbortSignal.timeout`, and the response body is capped at 2 MiB.',
      isPull: true,
      merged: true,
      state: 'closed',
      labels: ['enhancement'],
      comments: [
        { body: 'Thanks! Could you add a test for the endless-body case?', user: 'monalisa' },
        { body: 'Added in 3f1c2ab, PTAL.', user: 'hubot' },
      ],
      reviews: [
        { state: 'COMMENTED', body: 'A couple of nits inline.', user: 'monalisa' },
        { state: 'CHANGES_REQUESTED', body: 'The size cap must also apply to chunked responses.', user: 'defunkt' },
        { state: 'APPROVED', body: 'LGTM, thanks for the quick turnaround.', user: 'defunkt' },
      ],
      reviewComments: [
        {
          path: 'src/http.ts',
          line: 42,
          body: 'nit: `timeoutMs` rather than `timeout`, units in names.',
          user: 'monalisa',
        },
        {
          path: 'src/http.ts',
          line: 88,
          body: 'This reads the whole body before checking the cap; stream it instead.',
          user: 'defunkt',
        },
        {
          path: 'test/http.test.ts',
          line: 12,
          body: 'See https://github.com/nodejs/undici/issues/1412 for why this needs `reset: true`.',
          user: 'monalisa',
        },
      ],
      timeline: 8,
    },
    { owner: 'octo', repo: 'demo', number: 3, title: 'Spam issue', gone: 410 },
    {
      owner: 'octo',
      repo: 'demo',
      number: 5,
      title: 'Move me',
      movedTo: { owner: 'octo', repo: 'renamed', number: 5 },
    },
    {
      owner: 'octo',
      repo: 'renamed',
      number: 5,
      title: 'Support proxies configured through HTTPS_PROXY',
      body: 'Transferred from octo/demo. Corporate networks need `HTTPS_PROXY` support.',
      comments: 3,
      labels: ['enhancement'],
    },
  ]
}

function generatedTimeline(spec: GithubIssueSpec, count: number, api: string): unknown[] {
  const events: unknown[] = []
  for (let i = 0; i < count; i++) {
    const at = iso(BASE_TIME + (i + 1) * 5 * HOUR)
    const actor = user(USERS[i % USERS.length]!)
    const id = 9_000_000_000 + (hashInt(`${spec.owner}/${spec.repo}#${spec.number}\u0000ev${i}`) % 900_000_000)
    const base = {
      id,
      node_id: `LE_${digest(String(id), 16)}`,
      url: `${api}/repos/${spec.owner}/${spec.repo}/issues/events/${id}`,
      actor,
      created_at: at,
    }
    const kind = i % 8
    if (kind === 0)
      events.push({
        ...base,
        event: 'labeled',
        commit_id: null,
        commit_url: null,
        label: { name: ['bug', 'needs-triage', 'area/networking'][i % 3], color: 'd73a4a' },
      })
    else if (kind === 1) {
      const n = 100 + i
      const repoName = i % 16 === 1 ? 'other' : spec.repo
      events.push({
        actor,
        created_at: at,
        updated_at: at,
        event: 'cross-referenced',
        source: {
          type: 'issue',
          issue: {
            url: `${api}/repos/${spec.owner}/${repoName}/issues/${n}`,
            html_url: `https://github.com/${spec.owner}/${repoName}/${i % 3 === 0 ? 'pull' : 'issues'}/${n}`,
            id: 2_000_000_000 + n,
            number: n,
            title: `Follow-up for #${spec.number}: handle connection resets`,
            user: actor,
            state: i % 3 === 0 ? 'closed' : 'open',
            labels: [],
            comments: i % 4,
            created_at: at,
            updated_at: at,
            closed_at: null,
            body: `Related to ${spec.owner}/${spec.repo}#${spec.number}.`,
            repository: {
              id: hashInt(`${spec.owner}/${repoName}`) % 900_000_000,
              name: repoName,
              full_name: `${spec.owner}/${repoName}`,
              owner: user(spec.owner),
              html_url: `https://github.com/${spec.owner}/${repoName}`,
              url: `${api}/repos/${spec.owner}/${repoName}`,
            },
            ...(i % 3 === 0 && {
              pull_request: {
                url: `${api}/repos/${spec.owner}/${repoName}/pulls/${n}`,
                html_url: `https://github.com/${spec.owner}/${repoName}/pull/${n}`,
                merged_at: null,
              },
            }),
          },
        },
      })
    } else if (kind === 2) {
      const sha = digest(`ref${i}`, 40)
      events.push({
        ...base,
        event: 'referenced',
        commit_id: sha,
        commit_url: `${api}/repos/${spec.owner}/${spec.repo}/commits/${sha}`,
      })
    } else if (kind === 3) events.push({ ...base, event: 'marked_as_duplicate', commit_id: null, commit_url: null })
    else if (kind === 4) events.push({ ...base, event: 'subscribed', commit_id: null, commit_url: null })
    else if (kind === 5) {
      events.push({
        url: `${api}/repos/${spec.owner}/${spec.repo}/issues/comments/${id}`,
        html_url: `https://github.com/${spec.owner}/${spec.repo}/issues/${spec.number}#issuecomment-${id}`,
        issue_url: `${api}/repos/${spec.owner}/${spec.repo}/issues/${spec.number}`,
        id,
        node_id: `IC_${digest(String(id), 16)}`,
        user: actor,
        created_at: at,
        updated_at: at,
        author_association: 'CONTRIBUTOR',
        body: COMMENT_TEMPLATES[i % COMMENT_TEMPLATES.length]!(i),
        event: 'commented',
        actor,
      })
    } else if (kind === 6) {
      const sha = digest(`close${i}`, 40)
      events.push({
        ...base,
        event: 'closed',
        commit_id: sha,
        commit_url: `${api}/repos/${spec.owner}/${spec.repo}/commits/${sha}`,
        state_reason: 'completed',
      })
    } else events.push({ ...base, event: 'reopened', commit_id: null, commit_url: null })
  }
  return events
}

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

const issueJson = (stored: StoredIssue, api: string) => {
  const { spec } = stored
  const repoApi = `${api}/repos/${spec.owner}/${spec.repo}`
  const created = BASE_TIME
  const state = spec.state ?? (spec.merged ? 'closed' : 'open')
  const closedAt = state === 'closed' ? iso(created + 9 * 24 * HOUR) : null
  const author = user(USERS[spec.number % USERS.length]!)
  const reactions = { total: 0, plus: (spec.number * 7) % 13, heart: spec.number % 3, eyes: spec.number % 2 }
  return {
    url: `${repoApi}/issues/${spec.number}`,
    repository_url: repoApi,
    labels_url: `${repoApi}/issues/${spec.number}/labels{/name}`,
    comments_url: `${repoApi}/issues/${spec.number}/comments`,
    events_url: `${repoApi}/issues/${spec.number}/events`,
    html_url: `https://github.com/${spec.owner}/${spec.repo}/${spec.isPull ? 'pull' : 'issues'}/${spec.number}`,
    id: 1_000_000_000 + (hashInt(key(spec.owner, spec.repo, spec.number)) % 900_000_000),
    node_id: `I_kwDO${digest(key(spec.owner, spec.repo, spec.number), 14)}`,
    number: spec.number,
    title: spec.title ?? `Issue ${spec.number}`,
    user: author,
    labels: (spec.labels ?? []).map((name) => ({
      id: hashInt(`label\u0000${name}`),
      node_id: `LA_${digest(name, 12)}`,
      url: `${repoApi}/labels/${encodeURIComponent(name)}`,
      name,
      color: digest(name, 6),
      default: name === 'bug' || name === 'enhancement',
      description: null,
    })),
    state,
    locked: false,
    assignee: null,
    assignees: [],
    milestone: null,
    comments: stored.comments.length,
    created_at: iso(created),
    updated_at: iso(created + (stored.comments.length + 10) * HOUR),
    closed_at: closedAt,
    author_association: 'CONTRIBUTOR',
    active_lock_reason: null,
    body: spec.body ?? null,
    closed_by: state === 'closed' ? user('octocat') : null,
    reactions: {
      url: `${repoApi}/issues/${spec.number}/reactions`,
      total_count: reactions.plus + reactions.heart + reactions.eyes,
      '+1': reactions.plus,
      '-1': 0,
      laugh: 0,
      hooray: 0,
      confused: 0,
      heart: reactions.heart,
      rocket: 0,
      eyes: reactions.eyes,
    },
    timeline_url: `${repoApi}/issues/${spec.number}/timeline`,
    performed_via_github_app: null,
    state_reason: state === 'closed' ? (spec.isPull ? null : 'completed') : null,
    ...(spec.isPull && {
      draft: false,
      pull_request: {
        url: `${repoApi}/pulls/${spec.number}`,
        html_url: `https://github.com/${spec.owner}/${spec.repo}/pull/${spec.number}`,
        diff_url: `https://github.com/${spec.owner}/${spec.repo}/pull/${spec.number}.diff`,
        patch_url: `https://github.com/${spec.owner}/${spec.repo}/pull/${spec.number}.patch`,
        merged_at: spec.merged ? closedAt : null,
      },
    }),
  }
}

const commentsJson = (stored: StoredIssue, api: string) => {
  const { spec } = stored
  const repoApi = `${api}/repos/${spec.owner}/${spec.repo}`
  return stored.comments.map((c, i) => {
    const id = 1_500_000_000 + (hashInt(`${key(spec.owner, spec.repo, spec.number)}\u0000c${i}`) % 400_000_000)
    const at = iso(BASE_TIME + (i + 1) * HOUR)
    return {
      url: `${repoApi}/issues/comments/${id}`,
      html_url: `https://github.com/${spec.owner}/${spec.repo}/${spec.isPull ? 'pull' : 'issues'}/${spec.number}#issuecomment-${id}`,
      issue_url: `${repoApi}/issues/${spec.number}`,
      id,
      node_id: `IC_kwDO${digest(String(id), 14)}`,
      user: user(c.user),
      created_at: at,
      updated_at: at,
      author_association: c.user === 'octocat' ? 'OWNER' : 'CONTRIBUTOR',
      body: c.body,
      reactions: {
        url: `${repoApi}/issues/comments/${id}/reactions`,
        total_count: i % 3,
        '+1': i % 3,
        '-1': 0,
        laugh: 0,
        hooray: 0,
        confused: 0,
        heart: 0,
        rocket: 0,
        eyes: 0,
      },
      performed_via_github_app: null,
    }
  })
}

const pullJson = (stored: StoredIssue, api: string) => {
  const issue = issueJson(stored, api)
  const { spec } = stored
  const repoApi = `${api}/repos/${spec.owner}/${spec.repo}`
  const headSha = digest(`head\u0000${issue.node_id}`, 40)
  const repo = {
    id: hashInt(`${spec.owner}/${spec.repo}`) % 900_000_000,
    name: spec.repo,
    full_name: `${spec.owner}/${spec.repo}`,
    owner: user(spec.owner),
    html_url: `https://github.com/${spec.owner}/${spec.repo}`,
    url: repoApi,
  }
  return {
    url: `${repoApi}/pulls/${spec.number}`,
    id: issue.id + 1,
    node_id: `PR_kwDO${digest(issue.node_id, 14)}`,
    html_url: `https://github.com/${spec.owner}/${spec.repo}/pull/${spec.number}`,
    diff_url: `https://github.com/${spec.owner}/${spec.repo}/pull/${spec.number}.diff`,
    patch_url: `https://github.com/${spec.owner}/${spec.repo}/pull/${spec.number}.patch`,
    issue_url: issue.url,
    commits_url: `${repoApi}/pulls/${spec.number}/commits`,
    review_comments_url: `${repoApi}/pulls/${spec.number}/comments`,
    comments_url: issue.comments_url,
    number: spec.number,
    state: issue.state,
    locked: false,
    title: issue.title,
    user: issue.user,
    body: issue.body,
    labels: issue.labels,
    created_at: issue.created_at,
    updated_at: issue.updated_at,
    closed_at: issue.closed_at,
    merged_at: spec.merged ? issue.closed_at : null,
    merge_commit_sha: spec.merged ? digest(`merge\u0000${issue.node_id}`, 40) : null,
    draft: false,
    head: {
      label: `${spec.owner}:feature-${spec.number}`,
      ref: `feature-${spec.number}`,
      sha: headSha,
      user: user(spec.owner),
      repo,
    },
    base: {
      label: `${spec.owner}:main`,
      ref: 'main',
      sha: digest(`base\u0000${issue.node_id}`, 40),
      user: user(spec.owner),
      repo,
    },
    author_association: 'CONTRIBUTOR',
    merged: Boolean(spec.merged),
    mergeable: spec.merged ? null : true,
    merged_by: spec.merged ? user('octocat') : null,
    comments: stored.comments.length,
    review_comments: spec.reviewComments?.length ?? 0,
    commits: 3,
    additions: 120,
    deletions: 34,
    changed_files: 4,
  }
}

const reviewsJson = (stored: StoredIssue, api: string) => {
  const { spec } = stored
  const repoApi = `${api}/repos/${spec.owner}/${spec.repo}`
  return (spec.reviews ?? []).map((r, i) => {
    const id = 1_800_000_000 + i * 17 + spec.number
    return {
      id,
      node_id: `PRR_kwDO${digest(String(id), 14)}`,
      user: user(r.user ?? USERS[i % USERS.length]!),
      body: r.body ?? '',
      state: r.state,
      html_url: `https://github.com/${spec.owner}/${spec.repo}/pull/${spec.number}#pullrequestreview-${id}`,
      pull_request_url: `${repoApi}/pulls/${spec.number}`,
      author_association: 'MEMBER',
      submitted_at: iso(BASE_TIME + (i + 2) * 6 * HOUR),
      commit_id: digest(`head\u0000${spec.number}\u0000${i}`, 40),
    }
  })
}

const reviewCommentsJson = (stored: StoredIssue, api: string) => {
  const { spec } = stored
  const repoApi = `${api}/repos/${spec.owner}/${spec.repo}`
  const firstReview = reviewsJson(stored, api)[0]?.id ?? null
  return (spec.reviewComments ?? []).map((c, i) => {
    const id = 1_900_000_000 + i * 31 + spec.number
    const line = c.line ?? 10 + i
    const sha = digest(`head\u0000${spec.number}\u0000${i}`, 40)
    return {
      url: `${repoApi}/pulls/comments/${id}`,
      pull_request_review_id: firstReview,
      id,
      node_id: `PRRC_kwDO${digest(String(id), 14)}`,
      diff_hunk: `@@ -${line - 3},6 +${line - 3},7 @@ export async function requestJson(\n   const controller = new AbortController()\n+  const timeoutMs = options.timeoutMs ?? 8000`,
      path: c.path,
      commit_id: sha,
      original_commit_id: sha,
      user: user(c.user ?? USERS[i % USERS.length]!),
      body: c.body,
      created_at: iso(BASE_TIME + (i + 2) * 6 * HOUR),
      updated_at: iso(BASE_TIME + (i + 2) * 6 * HOUR),
      html_url: `https://github.com/${spec.owner}/${spec.repo}/pull/${spec.number}#discussion_r${id}`,
      pull_request_url: `${repoApi}/pulls/${spec.number}`,
      author_association: 'MEMBER',
      start_line: null,
      original_start_line: null,
      line,
      original_line: line,
      side: 'RIGHT',
      position: 4,
      original_position: 4,
      subject_type: 'line',
    }
  })
}

/** An issue as the routes keep it: its comments written out (a count becomes generated comments). */
function storedIssue(spec: GithubIssueSpec): StoredIssue {
  const comments =
    typeof spec.comments === 'number'
      ? Array.from({ length: spec.comments }, (_, i) => ({
          body: COMMENT_TEMPLATES[i % COMMENT_TEMPLATES.length]!(i),
          user: USERS[(i * 3) % USERS.length]!,
        }))
      : (spec.comments ?? []).map((c, i) => ({ body: c.body, user: c.user ?? USERS[i % USERS.length]! }))
  return { spec, comments, timeline: Array.isArray(spec.timeline) ? spec.timeline : undefined }
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

  const addIssue = (spec: GithubIssueSpec) => issues.set(key(spec.owner, spec.repo, spec.number), storedIssue(spec))
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
      const stored = issues.get(key(owner, repo, Number(num)))
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
