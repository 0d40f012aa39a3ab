import { parseInput } from '@search-layer/core'
import type { Passage } from '@search-layer/passages'
import { z } from 'zod'
import { findMarkers, type Marker } from './_markers.js'
import { sentenceSpans } from './_sentences.js'
import { Verifier } from './_verify.js'
import {
  ANSWER_LIMITS,
  type AnswerCounts,
  type CheckedAnswer,
  type CheckedSentence,
  type Citation,
  PassagesInputSchema,
} from './schema.js'

/**
 * Checks an answer's citations sentence by sentence. The answer cites passages as `[p3]`, `[p3: "exact words"]`,
 * `[p1, p4]` or `[p1][p2]`; a bare id is verified when the passage exists, a quote when it is in the passage's
 * text (compared without case, markup, typographic marks or extra white space). A sentence is `supported` with at
 * least one verified citation, `unverified` with citations none of which is, `uncited` with none. Pure; linear in
 * the answer's length. Model output past `ANSWER_LIMITS.maxAnswerChars` is cut (`truncated`); malformed passages
 * throw `InputError`.
 */
export function checkAnswer(text: string, passages: Passage[]): CheckedAnswer {
  const answer = parseInput(z.string(), text, 'answer text')
  const list = parseInput(PassagesInputSchema, passages, 'passages')
  const truncated = answer.length > ANSWER_LIMITS.maxAnswerChars
  return checkText(truncated ? cutAt(answer, ANSWER_LIMITS.maxAnswerChars) : answer, list, truncated)
}

/** `checkAnswer` on input already validated and cut. */
export function checkText(answer: string, passages: readonly Passage[], truncated = false): CheckedAnswer {
  const markers = findMarkers(answer)
  const verifier = new Verifier(passages)
  const sentences: CheckedSentence[] = []
  const counts: AnswerCounts = { supported: 0, unverified: 0, uncited: 0 }
  let droppedCitations = 0
  let m = 0
  for (const span of sentenceSpans(answer, markers)) {
    const own: Marker[] = []
    while (m < markers.length && markers[m]!.start < span.end) own.push(markers[m++]!)
    const text = answer.slice(span.start, span.end)
    if (own.length === 0 && !isClaim(text)) continue
    const items = own.flatMap((marker) => marker.items)
    droppedCitations += Math.max(0, items.length - ANSWER_LIMITS.maxCitationsPerSentence)
    const citations: Citation[] = items
      .slice(0, ANSWER_LIMITS.maxCitationsPerSentence)
      .map((item) => verifier.verify(item))
    const status = citations.some((c) => c.verified) ? 'supported' : citations.length > 0 ? 'unverified' : 'uncited'
    counts[status]++
    sentences.push({ text, start: span.start, end: span.end, status, citations })
  }
  return { answer, sentences, counts, truncated, droppedCitations }
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u
const HEADING = /^#{1,6}\s/

/** A span that states something: has a letter or digit and is not a markdown heading. */
function isClaim(text: string): boolean {
  return LETTER_OR_DIGIT.test(text) && !HEADING.test(text)
}

/** The first `max` characters, one fewer when the cut would split a surrogate pair. */
function cutAt(text: string, max: number): string {
  if (text.length <= max) return text
  const code = text.charCodeAt(max - 1)
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max)
}

/** The passages that verified citations of supported sentences point to, in the order given. */
export function citedPassages(checked: CheckedAnswer, passages: readonly Passage[]): Passage[] {
  const ids = new Set<string>()
  for (const s of checked.sentences)
    if (s.status === 'supported') for (const c of s.citations) if (c.verified) ids.add(c.passage)
  return passages.filter((p) => ids.has(p.id))
}
