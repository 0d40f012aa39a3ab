import type { SearchResponse } from '@search-layer/engine'

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text)

/** A readable numbered list: the answer first, then each result with its sources and score, then provider status. */
export function formatSearchMarkdown(response: SearchResponse): string {
  const lines: string[] = []
  if (response.answer) lines.push(response.answer.trim(), '')
  if (response.results.length === 0) lines.push('No results.')
  response.results.forEach((r, i) => {
    const score = r.score === undefined ? '' : ` ⭐${r.score.toFixed(2)}`
    const snippet = r.snippet ? ` — ${clip(r.snippet.replace(/\s+/g, ' '), 220)}` : ''
    lines.push(`${i + 1}. [${r.title || r.url}](${r.url})${snippet} \`[${r.source}]\`${score}`)
  })
  const status = Object.entries(response.providers)
    .filter(([, p]) => p.status !== 'skipped' || !p.reason?.startsWith('not used'))
    .map(([name, p]) => (p.status === 'ok' ? `${name} ✓ ${p.results}` : p.status === 'error' ? `${name} ✗ ${p.error?.kind}` : `${name} – ${p.reason}`))
  lines.push('', `_${response.intent ? `${response.intent} · ` : ''}${response.mode} · ${response.queries.length} quer${response.queries.length === 1 ? 'y' : 'ies'} · ${status.join(' · ')} · ${response.timing.total_ms} ms${response.cached ? ' (cached)' : ''}_`)
  return `${lines.join('\n')}\n`
}
