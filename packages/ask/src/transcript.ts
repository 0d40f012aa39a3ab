import type { Conversation } from './store.js'
import type { AskResult, AskStep } from './schema.js'

const MARK: Record<string, string> = { supported: '✓', unverified: '✗ unverified', uncited: '? uncited' }

// Model text and arguments are untrusted: one line each, bounded, so they cannot fake transcript headings.
const oneLine = (text: string, max: number): string => {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat
}

function stepLine(step: AskStep): string {
  const ms = `${Math.round(step.ms)} ms`
  if (step.kind === 'model') {
    const said = step.text?.trim() ? ` — "${oneLine(step.text, 300)}"` : ''
    return `${step.n}. **model** ${step.summary}${said} · ${ms}${step.tokens !== undefined ? ` · ${step.tokens} tokens` : ''}`
  }
  const args = step.args === undefined ? '' : ` \`${oneLine(JSON.stringify(step.args), 200).replace(/`/g, "'")}\``
  const ids = step.passages.length > 0 ? ` → ${step.passages.join(', ')}` : ''
  return `${step.n}. **${step.tool ?? 'tool'}**${args} — ${oneLine(step.summary, 300)}${ids} · ${ms}`
}

/** One turn as Markdown: question, steps, the answer with each sentence's status, its sources, the budgets. */
export function renderTurn(result: AskResult): string {
  const lines = [`## Turn ${result.turn}: ${oneLine(result.question, 300)}`, '']
  lines.push(`Mode: ${result.mode}${result.abstained ? ' · abstained' : ''} · confidence ${result.confidence.level}`)
  if (result.modelNote) lines.push(`Note: ${result.modelNote}`)
  lines.push('', '### Steps', '')
  lines.push(...(result.steps.length > 0 ? result.steps.map(stepLine) : ['(none)']))
  lines.push('', '### Answer', '')
  if (result.sentences.length === 0) lines.push(result.answer)
  for (const s of result.sentences) lines.push(`- ${MARK[s.status]} ${s.text}`)
  const c = result.counts
  lines.push('', `${c.supported} supported · ${c.unverified} unverified · ${c.uncited} uncited`)
  const cited = new Set(result.sentences.flatMap((s) => s.citations.map((x) => x.passage)))
  const sources = result.passages.filter((p) => cited.has(p.id))
  if (sources.length > 0) {
    lines.push('', '### Sources', '')
    for (const p of sources) lines.push(`- [${p.id}] ${oneLine(p.title, 120)} — ${p.url}`)
  }
  const u = result.usage
  lines.push(
    '',
    `Budgets: rounds ${u.rounds.used}/${u.rounds.limit} · tool calls ${u.toolCalls.used}/${u.toolCalls.limit} · ` +
      `tokens ${u.tokens.used}/${u.tokens.limit} · time ${Math.round(u.timeMs.used)}/${u.timeMs.limit} ms` +
      (u.exhausted ? ` · ${u.exhausted} ran out` : ''),
  )
  return lines.join('\n')
}

/** The whole conversation as a Markdown transcript. */
export function renderTranscript(conversation: Conversation): string {
  return [
    `# Conversation ${conversation.id}`,
    '',
    `Started ${conversation.createdAt}`,
    '',
    conversation.turns.map(renderTurn).join('\n\n'),
    '',
  ].join('\n')
}
