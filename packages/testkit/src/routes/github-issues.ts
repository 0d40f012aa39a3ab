import { digest, hashInt } from '../_util.js'
import type { GithubIssueSpec } from '../types.js'

// The issues the GitHub emulator keeps: the default seed, comments and timelines generated from a count, and the
// users and times they are written with.

export const USERS = ['octocat', 'hubot', 'monalisa', 'defunkt', 'mojombo', 'jlord', 'kdaigle', 'dependabot[bot]']
export const BASE_TIME = Date.parse('2026-03-02T10:00:00Z')
export const HOUR = 3_600_000

export function user(login: string) {
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

export function iso(ms: number): string {
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

export interface StoredIssue {
  spec: GithubIssueSpec
  comments: { body: string; user: string }[]
  timeline: unknown[] | undefined
}

export function issueKey(owner: string, repo: string, n: number): string {
  return `${owner.toLowerCase()}/${repo.toLowerCase()}#${n}`
}

/** The issues served by default: octo/demo#1 (150 comments, ~40 timeline events), #2 (merged PR), #3 (410), #5 (moved). */
export function seedIssues(): GithubIssueSpec[] {
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

export function generatedTimeline(spec: GithubIssueSpec, count: number, api: string): unknown[] {
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

/** An issue as the routes keep it: its comments written out (a count becomes generated comments). */
export function storedIssue(spec: GithubIssueSpec): StoredIssue {
  const comments =
    typeof spec.comments === 'number'
      ? Array.from({ length: spec.comments }, (_, i) => ({
          body: COMMENT_TEMPLATES[i % COMMENT_TEMPLATES.length]!(i),
          user: USERS[(i * 3) % USERS.length]!,
        }))
      : (spec.comments ?? []).map((c, i) => ({ body: c.body, user: c.user ?? USERS[i % USERS.length]! }))
  return { spec, comments, timeline: Array.isArray(spec.timeline) ? spec.timeline : undefined }
}
