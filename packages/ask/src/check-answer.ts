import type { Passage } from '@search-layer/passages'
import type { AnswerCounts, AnswerSentence, Citation } from './schema.js'

// Citations as the prompt asks for them: `[p3]` or `[p3: "exact words"]` (straight or curly quotes), one
// after another. Sticky and bounded, so a scan over the answer stays linear.
const CITE = /\[(p[1-9]\d{0,4})(?::\s*["“]([^"”\]\n]{1,600})["”])?\]/y
const ENDERS = new Set(['.', '!', '?', '。', '！', '？'])
const CJK_ENDERS = new Set(['。', '！', '？'])

/** The citation that starts at `at`, if one does. */
function citeAt(text: string, at: number): { length: number; id: string; quote?: string } | undefined {
  CITE.lastIndex = at
  const m = CITE.exec(text)
  if (!m) return undefined
  return { length: m[0].length, id: m[1] as string, ...(m[2] !== undefined && { quote: m[2] }) }
}

/** Index past the citations (and the spaces between them) that follow `at`. */
function pastCitations(text: string, at: number): number {
  let end = at
  let k = at
  for (;;) {
    while (k < text.length && (text[k] === ' ' || text[k] === '\t')) k++
    const cite = text[k] === '[' ? citeAt(text, k) : undefined
    if (!cite) return end
    k += cite.length
    end = k
  }
}

/** Sentence spans of the answer; a citation right after a sentence's end belongs to that sentence. */
function sentenceSpans(text: string): { start: number; end: number }[] {
  const spans: { start: number; end: number }[] = []
  let start = 0
  let i = 0
  const push = (end: number) => {
    const raw = text.slice(start, end)
    const lead = raw.length - raw.trimStart().length
    const trimmed = raw.trim()
    if (trimmed) spans.push({ start: start + lead, end: start + lead + trimmed.length })
    start = end
  }
  while (i < text.length) {
    const cite = text[i] === '[' ? citeAt(text, i) : undefined
    if (cite) {
      i += cite.length
      continue
    }
    const ch = text[i] as string
    if (ch === '\n' && text[i + 1] === '\n') {
      push(i)
      i++
      continue
    }
    if (ENDERS.has(ch)) {
      let j = i + 1
      while (j < text.length && ENDERS.has(text[j] as string)) j++
      const after = pastCitations(text, j)
      if (after >= text.length || /\s/.test(text[after] as string) || CJK_ENDERS.has(ch)) {
        push(after)
        i = after
        continue
      }
    }
    i++
  }
  push(text.length)
  return spans
}

/** Text compared for quotes: markdown emphasis and code marks dropped, quotes and dashes unified, spaces collapsed. */
function comparable(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/[*_`]/g, '')
    .replace(/[‘’]/g, "'")
    .replace(/[“”]/g, '"')
    .replace(/[–—]/g, '-')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase()
}

function checkCitation(id: string, quote: string | undefined, passages: ReadonlyMap<string, Passage>): Citation {
  const passage = passages.get(id)
  const base = { passage: id, ...(quote !== undefined && { quote }) }
  if (!passage) return { ...base, verified: false, reason: `no passage ${id} was read` }
  if (quote === undefined) return { ...base, verified: false, reason: 'no quote given' }
  if (comparable(quote).length < 3) return { ...base, verified: false, reason: 'quote too short' }
  if (!comparable(passage.text).includes(comparable(quote)))
    return { ...base, verified: false, reason: `the quote is not in ${id}` }
  return { ...base, verified: true }
}

function citationsIn(text: string): { id: string; quote?: string }[] {
  const found: { id: string; quote?: string }[] = []
  for (let i = text.indexOf('['); i !== -1 && i < text.length; i = text.indexOf('[', i + 1)) {
    const cite = citeAt(text, i)
    if (cite) found.push(cite.quote === undefined ? { id: cite.id } : { id: cite.id, quote: cite.quote })
  }
  return found
}

/**
 * Checks a cited answer against the passages: each sentence with its citations, each citation verified when its
 * passage exists and holds the quoted words; a sentence is `supported` with one verified citation, `unverified`
 * with citations none of which holds, `uncited` with none.
 */
export function checkAnswer(
  text: string,
  passages: readonly Passage[],
): { answer: string; sentences: AnswerSentence[]; counts: AnswerCounts } {
  const answer = text.trim()
  const byId = new Map(passages.map((p) => [p.id, p]))
  const sentences = sentenceSpans(answer).map(({ start, end }): AnswerSentence => {
    const sentence = answer.slice(start, end)
    const citations = citationsIn(sentence).map((c) => checkCitation(c.id, c.quote, byId))
    const status = citations.length === 0 ? 'uncited' : citations.some((c) => c.verified) ? 'supported' : 'unverified'
    return { text: sentence, start, end, status, citations }
  })
  const count = (status: AnswerSentence['status']) => sentences.filter((s) => s.status === status).length
  return {
    answer,
    sentences,
    counts: {
      sentences: sentences.length,
      supported: count('supported'),
      unverified: count('unverified'),
      uncited: count('uncited'),
    },
  }
}
