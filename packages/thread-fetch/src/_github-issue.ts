import { z } from 'zod'
import { ghGet, githubAuth, makeCtx } from './_github-client.js'
import { ghPaged } from './_github-pages.js'
import {
  CommentSchema,
  type Issue,
  IssueSchema,
  PullSchema,
  ReviewCommentSchema,
  ReviewSchema,
} from './_github-schemas.js'
import type { GithubTarget } from './_github-url.js'
import { DEFAULTS, type FetchThreadOptions } from './_options.js'
import { readRefs } from './_read-refs.js'
import { mergeRefs } from './refs.js'
import { timelineRefs } from './timeline.js'
import type { Ref, Thread, ThreadComment } from './types.js'

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
