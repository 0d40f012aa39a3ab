import type { Chain } from './chain.js'
import type { Ref, Thread } from './types.js'

const TYPE_LABEL: Record<Ref['type'], string> = {
  duplicate: 'Duplicates',
  fixes: 'Fixes',
  closes: 'Closes',
  resolves: 'Resolves',
  cross_ref_pr: 'Cross-referenced pull requests',
  cross_ref_issue: 'Cross-referenced issues',
  related: 'Related',
  pr: 'Pull requests',
  issue: 'Issues',
  commit: 'Commits',
  url: 'Links',
}

function quote(text: string): string {
  return text
    .trim()
    .split('\n')
    .map((line) => (line ? `> ${line}` : '>'))
    .join('\n')
}

/** Renders references grouped by type, most specific first, each with its context. */
export function refsToMarkdown(refs: readonly Ref[]): string {
  if (refs.length === 0) return '_No references._'
  const out: string[] = []
  for (const type of Object.keys(TYPE_LABEL) as Ref['type'][]) {
    const group = refs.filter((r) => r.type === type)
    if (group.length === 0) continue
    out.push(`### ${TYPE_LABEL[type]} (${group.length})`, '')
    for (const r of group) {
      const label = r.title ? `${r.text} — ${r.title}` : r.text
      const target = r.url ? `[${label.replace(/[[\]]/g, '')}](${r.url})` : label
      out.push(`- ${target}${r.state ? ` (${r.state})` : ''}${r.count > 1 ? ` ×${r.count}` : ''} — ${r.context}`)
    }
    out.push('')
  }
  return out.join('\n').trimEnd()
}

/** A readable markdown version of a thread: header, body, comments in order, then the references by type. */
export function threadToMarkdown(thread: Thread): string {
  const m = thread.metadata
  const facts = [
    thread.type,
    thread.state,
    typeof m.author === 'string' ? `by @${m.author}` : undefined,
    typeof m.createdAt === 'string' ? m.createdAt : undefined,
    thread.labels.length > 0 ? `labels: ${thread.labels.join(', ')}` : undefined,
  ].filter(Boolean)
  const out = [`# ${thread.title || thread.url}`, '', `<${thread.url}>`, '', facts.join(' · '), '']
  if (thread.error) out.push(`**Error (${thread.error.kind}):** ${thread.error.message}`, '')
  if (typeof m.movedFrom === 'string') out.push(`_Moved from ${m.movedFrom}._`, '')
  if (thread.body.trim()) out.push(thread.body.trim(), '')
  if (thread.comments.length > 0) {
    out.push(`## Comments (${thread.comments.length})`, '')
    for (const c of thread.comments) {
      const indent = '  '.repeat(Math.min(c.depth ?? 0, 6))
      const what =
        c.kind === 'review'
          ? `review ${c.reviewState ?? ''}`.trim()
          : c.kind === 'review_comment'
            ? `on ${c.path}${c.line ? `:${c.line}` : ''}`
            : ''
      out.push(
        `${indent}**@${c.author ?? 'ghost'}**${what ? ` (${what})` : ''}${c.createdAt ? ` · ${c.createdAt}` : ''}`,
        '',
      )
      if (c.body.trim()) out.push(indent ? quote(c.body).replace(/^/gm, indent) : quote(c.body), '')
    }
  }
  const truncated = m.truncated as Record<string, { returned: number; cut: number }> | undefined
  if (truncated)
    for (const [what, t] of Object.entries(truncated))
      out.push(`_${t.cut} more ${what} not included (returned ${t.returned})._`, '')
  if (Array.isArray(m.warnings)) for (const warning of m.warnings) out.push(`_Warning: ${warning}._`, '')
  out.push(`## References (${thread.refs.length})`, '', refsToMarkdown(thread.refs))
  return `${out.join('\n').trimEnd()}\n`
}

/** A chain as markdown: one section per depth, each node with why it was followed and a summary. */
export function chainToMarkdown(chain: Chain): string {
  const out = [
    `# Reference chain: ${chain.query}`,
    '',
    `${chain.stats.nodes} threads, ${chain.stats.ms} ms${chain.stopped ? `, stopped: ${chain.stopped}` : ''}`,
    '',
  ]
  const depths = [...new Set(chain.nodes.map((n) => n.depth))].sort((a, b) => a - b)
  for (const depth of depths) {
    out.push(`## Depth ${depth}`, '')
    for (const n of chain.nodes.filter((x) => x.depth === depth)) {
      out.push(`### [${(n.title || n.url).replace(/[[\]]/g, '')}](${n.url})`, '')
      if (n.parent) {
        const why = [
          n.reason.by === 'llm' ? 'chosen by the LLM gate' : `score ${n.reason.score ?? 0}`,
          n.reason.type,
          n.reason.context ? `“${n.reason.context}”` : undefined,
        ].filter(Boolean)
        out.push(`Followed from <${n.parent}>: ${why.join(' · ')}`, '')
      } else out.push('Seed.', '')
      if (n.error) out.push(`**Error (${n.error.kind}):** ${n.error.message}`, '')
      else if (n.summary) out.push(n.summary, '')
    }
  }
  return `${out.join('\n').trimEnd()}\n`
}
