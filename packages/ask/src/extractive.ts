import type { Passage } from '@search-layer/passages'
import type { AnswerCounts } from './schema.js'

const MAX_SENTENCES = 3
const MAX_QUOTE_CHARS = 300

const words = (text: string): Set<string> =>
  new Set(
    text
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w.length > 2),
  )

/** Quotable sentences of a passage: whole sentences the citation syntax can carry, best match to the question first. */
function quotable(passage: Passage, question: Set<string>): string[] {
  const candidates = passage.text
    .split(/(?<=[.!?。！？])\s+|\n+/)
    .map((s) => s.replace(/^[#>*\-\s]+/, '').trim())
    .filter((s) => s.length >= 20 && s.length <= MAX_QUOTE_CHARS && !/["“”[\]]/.test(s) && passage.text.includes(s))
  const overlap = (s: string) => [...words(s)].filter((w) => question.has(w)).length
  return candidates.sort((a, b) => overlap(b) - overlap(a))
}

/**
 * An answer made of the passages' own sentences, best passages first, each quoted exactly with its passage id
 * (`sentence [p2: "sentence"]`), at most one per page. Empty when no passage has a quotable sentence.
 */
export function extractiveAnswer(question: string, passages: readonly Passage[]): string {
  const wanted = words(question)
  const seen = new Set<string>()
  const lines: string[] = []
  for (const passage of [...passages].sort((a, b) => b.score - a.score)) {
    if (lines.length >= MAX_SENTENCES) break
    if (seen.has(passage.url)) continue
    const [best] = quotable(passage, wanted)
    if (!best) continue
    seen.add(passage.url)
    const sentence = /[.!?。！？]$/.test(best) ? best : `${best}.`
    lines.push(`${sentence} [${passage.id}: "${best}"]`)
  }
  return lines.join(' ')
}

/** What an abstention says: that nothing read supports an answer, and what was searched. */
export function abstention(question: string, searched: readonly string[]): string {
  const tried = searched.length > 0 ? ` Searched: ${searched.map((q) => JSON.stringify(q)).join(', ')}.` : ''
  return `No passage read supports an answer to ${JSON.stringify(question.slice(0, 200))}, so none is given.${tried}`
}

/** Confidence from how many sentences hold and over how many pages. */
export function answerConfidence({ counts, pages }: { counts: AnswerCounts; pages: number }): {
  level: 'high' | 'medium' | 'low' | 'none'
  score: number
} {
  if (counts.sentences === 0 || counts.supported === 0) return { level: 'none', score: 0 }
  const held = counts.supported / counts.sentences
  const spread = Math.min(1, pages / 2)
  const score = Math.round(held * (0.6 + 0.4 * spread) * 100) / 100
  return { level: score >= 0.75 ? 'high' : score >= 0.45 ? 'medium' : 'low', score }
}
