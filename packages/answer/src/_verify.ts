// Checks one cited passage id and quote against the passages: the quote must be in the passage's text, both in
// `normalizeForMatch`'s form. Each passage is normalised once, each (passage, quote) pair searched once.
import type { Passage } from '@search-layer/passages'
import { normalizeForMatch, trimEdges, wordCount } from './_normalize.js'
import type { MarkerItem } from './_markers.js'
import { ANSWER_LIMITS, type Citation } from './schema.js'

// A quote under both is too short to prove anything (`"in 2022"`): see `quote-too-short`.
const MIN_QUOTE_WORDS = 3
const MIN_QUOTE_CHARS = 12

export class Verifier {
  private readonly byId: Map<string, Passage>
  private readonly normalized = new Map<string, string>()
  private readonly checked = new Map<string, Citation>()

  constructor(passages: readonly Passage[]) {
    this.byId = new Map(passages.map((p) => [p.id, p]))
  }

  verify(item: MarkerItem): Citation {
    const passage = this.byId.get(item.passage)
    const base = item.quote === undefined ? { passage: item.passage } : { passage: item.passage, quote: item.quote }
    if (!passage) return { ...base, verified: false, reason: 'unknown-passage' }
    if (item.quote === undefined) return { ...base, verified: true }
    if (item.quote.length > ANSWER_LIMITS.maxQuoteChars) return { ...base, verified: false, reason: 'quote-too-long' }
    const quote = trimEdges(normalizeForMatch(item.quote))
    if (quote === '') return { ...base, verified: true }
    const key = `${passage.id}\u0000${quote}`
    let outcome = this.checked.get(key)
    if (!outcome) {
      outcome = this.search(passage, quote)
      this.checked.set(key, outcome)
    }
    return { ...base, verified: outcome.verified, ...(outcome.reason && { reason: outcome.reason }) }
  }

  private search(passage: Passage, quote: string): Citation {
    let text = this.normalized.get(passage.id)
    if (text === undefined) {
      text = normalizeForMatch(passage.text)
      this.normalized.set(passage.id, text)
    }
    const parts = text.includes(quote) ? [quote] : elidedParts(text, quote)
    if (!parts) return { passage: passage.id, verified: false, reason: 'quote-not-found' }
    const joined = parts.join(' ')
    const short = wordCount(joined) < MIN_QUOTE_WORDS && joined.length < MIN_QUOTE_CHARS
    return short
      ? { passage: passage.id, verified: true, reason: 'quote-too-short' }
      : { passage: passage.id, verified: true }
  }
}

/** A quote with `...` (or `…`, which NFKC makes `...`) where words were left out: its parts, found in order. */
function elidedParts(text: string, quote: string): string[] | null {
  if (!quote.includes('...')) return null
  const parts = quote
    .split('...')
    .map(trimEdges)
    .filter((p) => p.length > 0)
  if (parts.length === 0) return null
  let from = 0
  for (const part of parts) {
    const at = text.indexOf(part, from)
    if (at < 0) return null
    from = at + part.length
  }
  return parts
}
