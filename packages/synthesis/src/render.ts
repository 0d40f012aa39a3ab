import { markers } from './_citations.js'
import { wording } from './_i18n.js'
import { charLength, hanCount } from './_text.js'
import type { Synthesis, SynthesisJson, SynthesizedResult } from './types.js'

/** Rough token count: ~4 characters per token for Latin text, one per Han character. */
export function estimateTokens(text: string): number {
  const han = hanCount(text)
  return han + Math.ceil((charLength(text) - han) / 4)
}

function visible(s: Synthesis): Set<number> {
  return new Set(s.groups.flatMap((g) => g.results.map((r) => r.n)))
}

function citeWith(shown: ReadonlySet<number>) {
  return (results: readonly number[]) => {
    const kept = results.filter((n) => shown.has(n))
    return kept.length > 0 ? ` ${markers(kept)}` : ''
  }
}

function answerText(s: Synthesis, shown: ReadonlySet<number>): string | undefined {
  const a = s.answer
  if (!a) return undefined
  // An LLM answer carries its citations inline and is already worded; a provider answer gets them appended.
  if (a.source === 'llm') return a.text
  const cite = citeWith(shown)(a.citations)
  const body = `${a.text}${cite}`
  return a.confidence === 'high' ? body : wording(s.language).accordingTo(a.source, body)
}

// The lead is page text (untrusted) in markdown: escaped like a snippet, its references appended after it.
function leadText(s: Synthesis, shown: ReadonlySet<number>, inert: (text: string) => string): string | undefined {
  const lead = s.lead
  if (!lead) return undefined
  if (lead.basis === 'none') return wording(s.language).noneOnTopic(inert(s.query))
  const refs = `${citeWith(shown)(lead.citations)}${lead.passages.map((id) => ` [${id}]`).join('')}`
  return `${inert(lead.text)}${refs}`
}

function conflictLines(s: Synthesis, shown: ReadonlySet<number>): string[] {
  const w = wording(s.language)
  return s.conflicts.map((c) => w.differ(c, citeWith(shown)))
}

const mdTitle = (text: string) => text.replace(/([[\]\\])/g, '\\$1')
const mdUrl = (url: string) =>
  url.replace(/[\s()<>]/g, (ch) => encodeURIComponent(ch).replace(/[()]/g, (p) => (p === '(' ? '%28' : '%29')))
// Snippets are untrusted page text: no links, no code spans, no HTML may come through as markup.
const mdSnippet = (text: string) => text.replace(/`/g, "'").replace(/([[\]<>\\])/g, '\\$1')

function mdItem(r: SynthesizedResult, bullet: string): string {
  const snippet = r.snippet ? ` — ${mdSnippet(r.snippet)}` : ''
  const sources = r.sources.length > 0 ? ` \`[${r.sources.join(', ')}]\`` : ''
  const score = r.score === undefined ? '' : ` ⭐${r.score.toFixed(2)}`
  return `${bullet}[${mdTitle(r.title)}](${mdUrl(r.url)})${snippet}${sources}${score}`
}

function footer(s: Synthesis): string {
  const aspects = s.groups.filter((g) => g.terms.length > 0).map((g) => g.label)
  return wording(s.language).footer(s.total, s.providers, aspects.slice(0, 4))
}

/** Markdown without the final hard cut (used to measure budgets). */
export function renderMarkdown(s: Synthesis): string {
  const w = wording(s.language)
  const shown = visible(s)
  const blocks: string[] = []
  const answer = answerText(s, shown) ?? leadText(s, shown, mdSnippet)
  if (answer) blocks.push(answer)
  if (s.strategy === 'overview' && s.overview) blocks.push(s.overview)
  const conflicts = conflictLines(s, shown)
  if (conflicts.length > 0) blocks.push(conflicts.map((c) => `> ${c}`).join('\n>\n'))
  if (s.total === 0) blocks.push(w.noResults)
  if (s.strategy === 'list') {
    const items = s.groups.flatMap((g) => g.results).sort((a, b) => a.n - b.n)
    if (items.length > 0) blocks.push(items.map((r) => mdItem(r, `${r.n}. `)).join('\n'))
  } else if (s.strategy === 'grouped') {
    for (const g of s.groups)
      blocks.push([`**${g.label}** — ${g.summary}`, ...g.results.map((r) => mdItem(r, `- [${r.n}] `))].join('\n'))
  } else {
    const top = s.groups
      .flatMap((g) => g.results)
      .sort((a, b) => a.n - b.n)
      .slice(0, 5)
    if (top.length > 0) blocks.push([w.topHeader, ...top.map((r) => mdItem(r, `${r.n}. `))].join('\n'))
  }
  if (s.omitted > 0) blocks.push(w.omitted(s.omitted))
  if (s.strategy === 'overview') blocks.push(footer(s))
  return `${blocks.join('\n\n')}\n`
}

function textItem(r: SynthesizedResult, relevance: string): string {
  const lines = [`[${r.n}] ${r.title}`, `    ${r.url}`]
  if (r.snippet) lines.push(`    ${r.snippet}`)
  const meta = [
    r.score === undefined ? undefined : `${relevance} ${r.score.toFixed(2)}`,
    r.sources.join(', ') || undefined,
    r.publishedAt?.slice(0, 10),
  ]
  const shownMeta = meta.filter(Boolean)
  if (shownMeta.length > 0) lines.push(`    ${shownMeta.join(' · ')}`)
  return lines.join('\n')
}

/** Plain text without the final hard cut (used to measure budgets). */
export function renderText(s: Synthesis): string {
  const w = wording(s.language)
  const shown = visible(s)
  const blocks: string[] = []
  const answer = answerText(s, shown)
  if (answer) blocks.push(`${w.answerLabel(s.answer!.source)}: ${answer}`)
  const lead = answer ? undefined : leadText(s, shown, (text) => text)
  if (lead) blocks.push(s.lead?.basis === 'none' ? lead : `${w.leadLabel}: ${lead}`)
  if (s.overview) blocks.push(s.overview)
  const conflicts = conflictLines(s, shown)
  if (conflicts.length > 0) blocks.push(conflicts.join('\n'))
  if (s.total === 0) blocks.push(w.noResults)
  for (const g of s.groups) {
    const head = s.strategy === 'list' ? [] : [`${w.topicLabel}: ${g.label} — ${g.summary}`]
    blocks.push([...head, ...g.results.map((r) => textItem(r, w.relevance))].join('\n'))
  }
  if (s.omitted > 0) blocks.push(w.omitted(s.omitted))
  if (s.strategy === 'overview') blocks.push(footer(s))
  return `${blocks.join('\n\n')}\n`
}

// Last resort when even an empty synthesis is over budget: cut the string itself.
function hardCut(out: string, budget: Synthesis['budget']): string {
  if (!budget) return out
  let chars = Array.from(out)
  if (budget.maxChars !== undefined && chars.length > budget.maxChars)
    chars = [...chars.slice(0, Math.max(0, budget.maxChars - 1)), '…']
  if (budget.maxTokens !== undefined) {
    while (chars.length > 1 && estimateTokens(chars.join('')) > budget.maxTokens) {
      const over = estimateTokens(chars.join('')) - budget.maxTokens
      chars = [...chars.slice(0, Math.max(0, chars.length - 1 - Math.max(1, over))), '…']
    }
  }
  return chars.join('')
}

/** Markdown for people: answer first, then the list, topics or overview as the strategy says, within the budget. */
export function toMarkdown(synthesis: Synthesis): string {
  return hardCut(renderMarkdown(synthesis), synthesis.budget)
}

/** Plain text for agent tool results: number, title, URL, snippet and relevance score per result, within the budget. */
export function toText(synthesis: Synthesis): string {
  return hardCut(renderText(synthesis), synthesis.budget)
}

/** The JSON form for programs: `{answer, groups: [{label, summary, results}], conflicts, omitted}`. */
export function toJSON(synthesis: Synthesis): SynthesisJson {
  const a = synthesis.answer
  return {
    answer: a ? { text: a.text, citations: [...a.citations], source: a.source } : null,
    lead: synthesis.lead && {
      ...synthesis.lead,
      citations: [...synthesis.lead.citations],
      passages: [...synthesis.lead.passages],
    },
    groups: synthesis.groups.map((g) => ({
      label: g.label,
      summary: g.summary,
      results: g.results.map((r) => ({ ...r, sources: [...r.sources] })),
    })),
    conflicts: synthesis.conflicts.map((c) => ({
      ...c,
      claims: c.claims.map((cl) => ({ ...cl, results: [...cl.results], sources: [...cl.sources] })),
    })),
    omitted: synthesis.omitted,
  }
}
