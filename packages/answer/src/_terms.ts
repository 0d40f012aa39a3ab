// Terms a question and a sentence share, for the extractive answer: words without English or Chinese function
// words, matched on their first five letters (release ~ released, fetch ~ fetches), and CJK runs as characters and
// overlapping pairs (as Lucene's CJK bigrams), so a Chinese question matches Chinese text without a dictionary.
import { CHINESE_STOP_WORDS, CJK_CLASS, ENGLISH_STOP_WORDS } from '@search-layer/core/text'
import { normalizeForMatch } from './_normalize.js'

const TOKENS = new RegExp(`[${CJK_CLASS}]+|[\\p{L}\\p{N}]+`, 'gu')
const CJK_RUN = new RegExp(`^[${CJK_CLASS}]`, 'u')
const PREFIX = 5

/** The question's distinct terms. */
export function questionTerms(question: string): string[] {
  const terms = new Set<string>()
  for (const token of normalizeForMatch(question).match(TOKENS) ?? []) {
    if (CJK_RUN.test(token)) {
      for (const gram of cjkGrams(token, token.length === 1)) if (!CHINESE_STOP_WORDS.has(gram)) terms.add(gram)
    } else if (!ENGLISH_STOP_WORDS.has(token) && (token.length > 1 || /\d/.test(token)))
      terms.add(token.length >= 4 ? token.slice(0, PREFIX) : token)
  }
  return [...terms]
}

/** Every key a question term can match in a text: words, their 4- and 5-letter prefixes, CJK characters and pairs. */
export function textKeys(text: string): Set<string> {
  const keys = new Set<string>()
  for (const token of normalizeForMatch(text).match(TOKENS) ?? []) {
    if (CJK_RUN.test(token)) for (const gram of cjkGrams(token, true)) keys.add(gram)
    else {
      keys.add(token)
      if (token.length >= 4) keys.add(token.slice(0, 4))
      if (token.length >= PREFIX) keys.add(token.slice(0, PREFIX))
    }
  }
  return keys
}

/** Overlapping character pairs of a CJK run, and its single characters when `unigrams`. */
function cjkGrams(run: string, unigrams: boolean): string[] {
  const chars = [...run]
  const grams: string[] = []
  for (let i = 0; i < chars.length; i++) {
    if (unigrams) grams.push(chars[i]!)
    if (i + 1 < chars.length) grams.push(chars[i]! + chars[i + 1]!)
  }
  return grams
}
