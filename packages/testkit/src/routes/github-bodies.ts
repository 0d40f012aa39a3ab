import { hashInt, digest } from '../_util.js'
import { BASE_TIME, HOUR, type StoredIssue, USERS, iso, issueKey, user } from './github-issues.js'

// GitHub's REST bodies for one stored issue: the issue, its comments, and for a pull request the pull, its reviews
// and review comments, each with the fields and URLs GitHub sends.

export const issueJson = (stored: StoredIssue, api: string) => {
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
    id: 1_000_000_000 + (hashInt(issueKey(spec.owner, spec.repo, spec.number)) % 900_000_000),
    node_id: `I_kwDO${digest(issueKey(spec.owner, spec.repo, spec.number), 14)}`,
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

export const commentsJson = (stored: StoredIssue, api: string) => {
  const { spec } = stored
  const repoApi = `${api}/repos/${spec.owner}/${spec.repo}`
  return stored.comments.map((c, i) => {
    const id = 1_500_000_000 + (hashInt(`${issueKey(spec.owner, spec.repo, spec.number)}\u0000c${i}`) % 400_000_000)
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

export const pullJson = (stored: StoredIssue, api: string) => {
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

export const reviewsJson = (stored: StoredIssue, api: string) => {
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

export const reviewCommentsJson = (stored: StoredIssue, api: string) => {
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
