// The terms BM25 matches on. Words of space-separated scripts are lower-cased, English stop words
// dropped and English words stemmed (Porter, `stemmer`); a run of a script written without spaces
// (Chinese, Japanese, Korean) gives its characters and its overlapping character pairs, as Lucene's
// CJK bigram filter does with unigrams kept: a Chinese query matches a Chinese passage without a
// dictionary, pairs carry most of the weight (rarer, so higher IDF) and a one-character word still matches.
// Characters and pairs that are core's Chinese stop words (的, 是, 什么, 如何, …) are dropped.
import { CHINESE_STOP_WORDS, ENGLISH_STOP_WORDS } from '@search-layer/core/text'
import { stemmer } from 'stemmer'
import { isCjkCodePoint } from './_text.js'

// Runs of letters, marks and digits; one character class, so matching is linear.
const RUN = /[\p{L}\p{M}\p{N}]+/gu
const ASCII_WORD = /^[a-z]+$/
// Stemming is the costliest step per word and a page repeats its words: stems are kept, up to a bound.
const MAX_CACHED_STEMS = 50_000
const stems = new Map<string, string>()

function stem(word: string): string {
  let stemmed = stems.get(word)
  if (stemmed === undefined) {
    stemmed = stemmer(word)
    if (stems.size >= MAX_CACHED_STEMS) stems.clear()
    stems.set(word, stemmed)
  }
  return stemmed
}

// Any character `isCjkCodePoint` accepts (a high surrogate stands for the supplementary ideographs):
// most runs have none and skip the per-character walk.
const MAY_HAVE_CJK =
  /[\u3005\u3007\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f\ud840-\ud888]/

/** Search terms of a text, in order (repeats kept: BM25 counts them). */
export function searchTerms(text: string): string[] {
  const terms: string[] = []
  for (const match of text.toLowerCase().matchAll(RUN)) {
    const run = match[0]
    if (!MAY_HAVE_CJK.test(run)) {
      addTerms(terms, run, false)
      continue
    }
    let from = 0
    let cjk: boolean | null = null
    for (let i = 0; i < run.length; ) {
      const cp = run.codePointAt(i)!
      const isCjk = isCjkCodePoint(cp)
      if (cjk !== null && isCjk !== cjk) {
        addTerms(terms, run.slice(from, i), cjk)
        from = i
      }
      cjk = isCjk
      i += cp > 0xffff ? 2 : 1
    }
    if (cjk !== null) addTerms(terms, run.slice(from), cjk)
  }
  return terms
}

function addTerms(terms: string[], segment: string, cjk: boolean): void {
  if (cjk) {
    const chars = Array.from(segment)
    for (let i = 0; i < chars.length; i++) {
      if (!CHINESE_STOP_WORDS.has(chars[i]!)) terms.push(chars[i]!)
      const pair = i + 1 < chars.length ? chars[i]! + chars[i + 1]! : ''
      if (pair !== '' && !CHINESE_STOP_WORDS.has(pair)) terms.push(pair)
    }
    return
  }
  const word = segment
  if (ENGLISH_STOP_WORDS.has(word)) return
  if (word.length === 1 && !(word >= '0' && word <= '9')) return
  terms.push(ASCII_WORD.test(word) ? stem(word) : word)
}
