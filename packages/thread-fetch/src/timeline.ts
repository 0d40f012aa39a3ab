import { findRefs } from './refs.js'
import type { Ref } from './types.js'

/** What a GitHub issue timeline says beyond its references. */
export interface TimelineSummary {
  /** Typed references: `cross_ref_issue`/`cross_ref_pr` for cross-references, `commit` for referencing/closing commits. */
  refs: Ref[]
  events: number
  byType: Record<string, number>
  /** The commit that closed the issue, when GitHub recorded one. */
  closedBy?: { actor: string | null; commit?: string; at: string | null }
  mergeCommit?: string
  /** Set when someone marked the issue as a duplicate (REST does not name the original; see the `duplicate` refs). */
  markedDuplicate?: boolean
  renamed?: { from: string; to: string }[]
}

type Obj = Record<string, unknown>

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v)
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)
const login = (v: unknown): string | null => (isObj(v) ? (str(v.login) ?? null) : null)

/**
 * Reads raw REST timeline events (`GET /repos/{o}/{r}/issues/{n}/timeline`) of issue `repo` into typed references
 * and a summary. Unknown or malformed events are counted and skipped, never thrown on.
 */
export function timelineRefs(
  events: readonly unknown[],
  options: { repo: string; contextChars?: number },
): TimelineSummary {
  const refs: Ref[] = []
  const byType: Record<string, number> = {}
  const summary: TimelineSummary = { refs, events: events.length, byType }
  for (const raw of events) {
    if (!isObj(raw)) continue
    const event = str(raw.event) ?? 'unknown'
    byType[event] = (byType[event] ?? 0) + 1
    const actor = login(raw.actor)
    const at = str(raw.created_at) ?? null
    if (event === 'cross-referenced') {
      const source = isObj(raw.source) ? raw.source : undefined
      const issue = source && isObj(source.issue) ? source.issue : undefined
      const html = issue ? str(issue.html_url) : undefined
      const number = issue && typeof issue.number === 'number' ? issue.number : undefined
      if (!issue || !html || number === undefined) continue
      const repo = repoOf(issue, html)
      const pull = isObj(issue.pull_request) ? issue.pull_request : undefined
      const isPr = pull !== undefined || html.includes('/pull/')
      const state = pull && str(pull.merged_at) ? 'merged' : str(issue.state)
      const title = str(issue.title)
      refs.push({
        type: isPr ? 'cross_ref_pr' : 'cross_ref_issue',
        url: html,
        key: `github:${repo.toLowerCase()}#${number}`,
        text: `${repo}#${number}`,
        context: `${actor ?? 'someone'} referenced this from ${isPr ? 'pull request' : 'issue'} ${repo}#${number}${title ? `: ${title}` : ''}${at ? ` (${at})` : ''}`,
        repo,
        number,
        ...(title !== undefined && { title }),
        ...(state !== undefined && { state }),
        source: 'timeline',
        count: 1,
      })
    } else if (event === 'referenced' || event === 'closed' || event === 'merged') {
      const sha = str(raw.commit_id)
      if (event === 'closed') summary.closedBy = { actor, at, ...(sha && { commit: sha }) }
      if (event === 'merged' && sha) summary.mergeCommit = sha
      if (!sha) continue
      const repo = repoFromCommitUrl(str(raw.commit_url)) ?? options.repo
      const what =
        event === 'referenced'
          ? 'referenced this in commit'
          : event === 'closed'
            ? 'closed this in commit'
            : 'merged this as commit'
      refs.push(commitRef(repo, sha, `${actor ?? 'someone'} ${what} ${sha.slice(0, 7)}${at ? ` (${at})` : ''}`))
    } else if (event === 'committed') {
      // A pull request's own commits: the commit and whatever its message references.
      const sha = str(raw.sha)
      if (!sha) continue
      const message = str(raw.message) ?? ''
      refs.push(commitRef(options.repo, sha, `commit ${sha.slice(0, 7)}: ${message.split('\n')[0]}`))
      refs.push(
        ...findRefs(message, {
          repo: options.repo,
          source: `commit:${sha.slice(0, 7)}`,
          contextChars: options.contextChars,
        }),
      )
    } else if (event === 'marked_as_duplicate') summary.markedDuplicate = true
    else if (event === 'unmarked_as_duplicate') summary.markedDuplicate = false
    else if (event === 'renamed' && isObj(raw.rename)) {
      const from = str(raw.rename.from)
      const to = str(raw.rename.to)
      if (from !== undefined && to !== undefined) {
        summary.renamed ??= []
        summary.renamed.push({ from, to })
      }
    }
  }
  return summary
}

function commitRef(repo: string, sha: string, context: string): Ref {
  return {
    type: 'commit',
    url: `https://github.com/${repo}/commit/${sha}`,
    key: `github:${repo.toLowerCase()}@${sha.toLowerCase()}`,
    text: sha.slice(0, 7),
    context,
    repo,
    sha,
    source: 'timeline',
    count: 1,
  }
}

function repoOf(issue: Obj, html: string): string {
  const repository = isObj(issue.repository) ? str(issue.repository.full_name) : undefined
  if (repository) return repository
  const m = /github\.com\/([^/]+\/[^/]+)\//.exec(html)
  return m?.[1] ?? 'unknown/unknown'
}

function repoFromCommitUrl(url: string | undefined): string | undefined {
  const m = url ? /\/repos\/([^/]+\/[^/]+)\/commits\//.exec(url) : null
  return m?.[1]
}
