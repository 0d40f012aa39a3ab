import { parseInput } from '@search-layer/core'
import { CJK_CLASS } from '@search-layer/core/text'
import type { Passage } from '@search-layer/passages'
import { sentenceSpans } from './_sentences.js'
import { questionTerms, textKeys } from './_terms.js'
import { Verifier } from './_verify.js'
import { checkText } from './check-answer.js'
import {
  type ExtractiveAnswer,
  type ExtractiveOptions,
  ExtractiveOptionsSchema,
  PassagesInputSchema,
  QuestionSchema,
} from './schema.js'

/** The first line of every extractive answer: it was not written by a model, its sentences are the sources' own. */
export const EXTRACTIVE_LABEL = 'Extractive answer (no model): sentences quoted from the sources read.'

// Characters of a passage read for sentences, and the size of a sentence worth quoting: at least 20 columns (a CJK
// character takes two, so 10 of them make a sentence), at most 400 characters.
const MAX_PASSAGE_CHARS = 20_000
const MIN_SENTENCE_WIDTH = 20
const MAX_SENTENCE_CHARS = 400
const CJK_CHARS = new RegExp(`[${CJK_CLASS}]`, 'gu')

const displayWidth = (text: string): number => text.length + (text.match(CJK_CHARS)?.length ?? 0)
const MAX_PER_PASSAGE = 2

interface Candidate {
  passage: Passage
  rank: number
  position: number
  text: string
  matched: number
}

/**
 * An answer made of the best passages' own sentences that share the question's terms, each cited with itself as
 * the quote (`[p2: "the sentence"]`), so every sentence is verified by construction. `answer` opens with
 * `EXTRACTIVE_LABEL`; when no sentence shares a term it says so, with no sentence counted. Pure; throws
 * `InputError` for an empty question or malformed passages.
 */
export function extractiveAnswer(
  question: string,
  passages: Passage[],
  options: ExtractiveOptions = {},
): ExtractiveAnswer {
  const q = parseInput(QuestionSchema, question, 'question')
  const list = parseInput(PassagesInputSchema, passages, 'passages')
  const opts = parseInput(ExtractiveOptionsSchema, options, 'extractive options')
  const terms = questionTerms(q)
  const best = [...list].sort((a, b) => b.score - a.score).slice(0, opts.maxPassages)
  const chosen = chooseSentences(candidatesOf(best, terms), terms.length, opts.maxSentences)
  const body =
    chosen.length > 0
      ? chosen.map((c) => `- ${c.text} [${c.passage.id}: "${c.text}"]`).join('\n')
      : `No sentence of the ${best.length} passage${best.length === 1 ? '' : 's'} read shares the question's terms.`
  const head = `${EXTRACTIVE_LABEL}\n\n`
  const checked = checkText(body, list)
  const sentences = chosen.length === 0 ? [] : checked.sentences
  return {
    ...checked,
    answer: head + body,
    sentences: sentences.map((s) => ({ ...s, start: s.start + head.length, end: s.end + head.length })),
    counts: chosen.length === 0 ? { supported: 0, unverified: 0, uncited: 0 } : checked.counts,
    mode: 'extractive',
  }
}

/** Each passage's sentences that share at least one term with the question and quote cleanly. */
function candidatesOf(passages: readonly Passage[], terms: readonly string[]): Candidate[] {
  const verifier = new Verifier(passages)
  const seen = new Set<string>()
  const out: Candidate[] = []
  passages.forEach((passage, rank) => {
    const source = passage.text.slice(0, MAX_PASSAGE_CHARS)
    sentenceSpans(source, []).forEach((span, position) => {
      const raw = source.slice(span.start, span.end)
      if (NOT_PROSE.test(raw)) return
      const text = quotable(raw)
      const width = displayWidth(text)
      if (width < MIN_SENTENCE_WIDTH || text.length > MAX_SENTENCE_CHARS || seen.has(text)) return
      const keys = textKeys(text)
      const matched = terms.filter((t) => keys.has(t)).length
      if (matched === 0 || !verifier.verify({ passage: passage.id, quote: text }).verified) return
      seen.add(text)
      out.push({ passage, rank, position, text, matched })
    })
  })
  return out
}

/**
 * The best sentences: most terms matched (at least two when the question has two), at most two per passage,
 * ties to the better passage and the earlier sentence; returned in passage and reading order.
 */
function chooseSentences(candidates: readonly Candidate[], termCount: number, max: number): Candidate[] {
  const need = Math.min(2, termCount)
  const ranked = candidates
    .filter((c) => c.matched >= need)
    .sort((a, b) => b.matched - a.matched || a.rank - b.rank || a.position - b.position)
  const top = ranked[0]?.matched ?? 0
  const perPassage = new Map<string, number>()
  const chosen: Candidate[] = []
  for (const c of ranked) {
    if (chosen.length >= max || c.matched < top / 2) break
    const n = perPassage.get(c.passage.id) ?? 0
    if (n >= MAX_PER_PASSAGE) continue
    perPassage.set(c.passage.id, n + 1)
    chosen.push(c)
  }
  return chosen.sort((a, b) => a.rank - b.rank || a.position - b.position)
}

// A markdown link's target, and the marks a quote inside `[pN: "…"]` cannot hold or a reader does not need.
const LINK_TARGET = /\]\([^()\s]{0,500}\)/g
const UNQUOTABLE = /[[\]]/g
const LIST_MARK = /^(?:[-*+]|\d{1,3}[.)])\s+/
const QUOTE_MARK = /^>\s*/
// Headings, table rows and code fences are not sentences to quote.
const NOT_PROSE = /^\s*(?:#{1,6}\s|\||```|~~~)/

/** A sentence as it can be shown and quoted: link targets, brackets, list and quote marks removed; one line. */
function quotable(sentence: string): string {
  return sentence
    .replace(LINK_TARGET, '')
    .replace(UNQUOTABLE, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(QUOTE_MARK, '')
    .replace(LIST_MARK, '')
    .trim()
}
