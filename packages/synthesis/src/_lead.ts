// The LLM-free answer line: what opens a synthesis when no model and no provider wrote an answer. Built from the
// best passage of the pages read when the search read any, else from the top-ranked results that are about the query;
// when none is, it says so instead of quoting whatever ranked first.

import { clip, firstSentence, flatten, hanCount, termKeys } from './_text.js'
import type { SynthesisLead, SynthesisPassageInput, SynthesizedResult } from './types.js'

/** How many of the top results the results' lead looks at: below that a result is not what the search is about. */
const LEAD_WINDOW = 5
const LEAD_MAX_CHARS = 240

/**
 * Share of the query's content terms a text names (0–1). A query without content terms (only stop words) makes every
 * text count as on topic: there is nothing to tell them apart by.
 */
function topicShare(text: string, queryKeys: ReadonlySet<string>): number {
  if (queryKeys.size === 0) return 1
  const keys = termKeys(text)
  let shared = 0
  for (const k of queryKeys) if (keys.has(k)) shared++
  return shared / queryKeys.size
}

/**
 * On topic: names at least one content term of the query, and a third of them when the query has four or more (a
 * page about Tokio is about "rust async runtime" while naming only "runtime": pages rarely repeat the query's words).
 */
function isOnTopic(text: string, queryKeys: ReadonlySet<string>): boolean {
  const share = topicShare(text, queryKeys)
  return share > 0 && (queryKeys.size < 4 || share >= 1 / 3)
}

const MIN_SENTENCE_CHARS = 40
const MAX_SCAN_CHARS = 4_000
// A sentence ends at . ! ? before a capital, a digit or an opening quote (so `tokio::select! runs` and `e.g. this`
// stay whole), or at Chinese end punctuation.
const SENTENCE_END = /(?<=[.!?])\s+(?=[\p{Lu}\p{N}"'“‘([])|(?<=[。!?;;])/u

const isLong = (text: string) => text.length + 3 * hanCount(text) >= MIN_SENTENCE_CHARS

/**
 * Sentences of at least a line's worth, paragraph by paragraph (a heading is its own): a fragment ("Yes.") joins the next
 * sentence of its line. Lines without one (headings, labels) are used only when nothing longer is there.
 */
function fullSentences(text: string): string[] {
  const long: string[] = []
  const short: string[] = []
  for (const paragraph of text.slice(0, MAX_SCAN_CHARS).split(/\n\s*\n/)) {
    let pending = ''
    for (const part of flatten(paragraph).split(SENTENCE_END)) {
      if (!part.trim()) continue
      pending = pending ? `${pending} ${part.trim()}` : part.trim()
      if (isLong(pending)) {
        long.push(pending)
        pending = ''
      }
    }
    if (pending) short.push(pending)
  }
  return long.length > 0 ? long : short
}

/** The sentence of a text that names most query terms (the first of equals), clipped to one line. */
function bestSentence(text: string, queryKeys: ReadonlySet<string>): string {
  let best = ''
  let bestShare = -1
  for (const s of fullSentences(text)) {
    const share = topicShare(s, queryKeys)
    if (share > bestShare) {
      best = s
      bestShare = share
    }
  }
  return clip(best || flatten(text), LEAD_MAX_CHARS)
}

function fromPassages(
  passages: readonly SynthesisPassageInput[],
  results: readonly SynthesizedResult[],
  queryKeys: ReadonlySet<string>,
): SynthesisLead | undefined {
  // Passages come best first; the first one about the query leads.
  const passage = passages.find((p) => isOnTopic(`${p.heading ?? ''} ${p.text}`, queryKeys))
  if (!passage) return undefined
  const result = results.find((r) => r.n === passage.resultRank) ?? results.find((r) => r.url === passage.url)
  return {
    text: bestSentence(passage.text, queryKeys),
    citations: result ? [result.n] : [],
    passages: [passage.id],
    basis: 'passages',
  }
}

// Rank still leads; engines agreeing on a result and more of the query's terms named lift it over its neighbours.
function leadScore(r: SynthesizedResult, queryKeys: ReadonlySet<string>): number {
  const agreement = Math.min(Math.max(r.sources.length - 1, 0), 3) / 3
  return topicShare(`${r.title} ${r.snippet}`, queryKeys) + 0.2 * agreement - 0.08 * (r.n - 1)
}

function fromResults(results: readonly SynthesizedResult[], queryKeys: ReadonlySet<string>): SynthesisLead | undefined {
  const onTopic = results.slice(0, LEAD_WINDOW).filter((r) => isOnTopic(`${r.title} ${r.snippet}`, queryKeys))
  if (onTopic.length === 0) return undefined
  const top = onTopic.reduce((best, r) => (leadScore(r, queryKeys) > leadScore(best, queryKeys) ? r : best))
  const sentence = firstSentence(top.snippet)
  const text = sentence && isOnTopic(sentence, queryKeys) ? sentence : top.title
  // The other on-topic results that name most of the same specific terms back it up.
  const own = [...termKeys(text)].filter((k) => !queryKeys.has(k))
  const backing = onTopic.filter((r) => {
    if (r.n === top.n || own.length === 0) return false
    const keys = termKeys(`${r.title} ${r.snippet}`)
    const shared = own.filter((k) => keys.has(k)).length
    return shared >= Math.min(2, own.length) && shared >= own.length * 0.4
  })
  const citations = [top.n, ...backing.slice(0, 2).map((r) => r.n)].sort((a, b) => a - b)
  return { text: clip(text, LEAD_MAX_CHARS), citations, passages: [], basis: 'results' }
}

/**
 * The lead of a synthesis without a written answer: the best on-topic passage, else the best of the top results that
 * names the query's terms, else `basis: 'none'` (no text; the renderers say plainly that nothing is on topic).
 * `null` when there are no results.
 */
export function buildLead(
  results: readonly SynthesizedResult[],
  passages: readonly SynthesisPassageInput[],
  queryKeys: ReadonlySet<string>,
): SynthesisLead | null {
  if (results.length === 0) return null
  return (
    fromPassages(passages, results, queryKeys) ??
    fromResults(results, queryKeys) ?? { text: '', citations: [], passages: [], basis: 'none' }
  )
}
