import { CHINESE_STOP_WORDS, ENGLISH_STOP_WORDS, hasCjk } from '@search-layer/core/text'
import { round4 } from './_math.js'

// Keyword matching. Query terms are found in the text as whole words, so "rust" never matches "trust";
// CJK has no spaces, so CJK terms come from Intl.Segmenter and match as substrings of the text.

const NON_ASCII = /[^\x00-\x7f]/
/** Technical names whose punctuation is part of the name; word segmentation would cut them to "c", "f", "net". */
const SYMBOL_TOKENS = /(?<![\p{L}\p{N}])(c\+\+|c#|f#|j#|\.net)(?![\p{L}\p{N}+#])/giu
/** Latin words, numbers and dotted or dashed compounds: node.js, gpt-4o, k8s, 1.22. */
const ASCII_WORD = /[a-z0-9]+(?:[._'+-][a-z0-9]+)*/g

const STOPWORDS: ReadonlySet<string> = new Set([...ENGLISH_STOP_WORDS, ...CHINESE_STOP_WORDS])

let segmenter: Intl.Segmenter | undefined

function segment(text: string): string[] {
  segmenter ??= new Intl.Segmenter('zh', { granularity: 'word' })
  const out: string[] = []
  for (const part of segmenter.segment(text)) if (part.isWordLike) out.push(part.segment)
  return out
}

/** Light plural folding of query terms; `containsWord` accepts the folded term plus "s", so "tutorials" meets "tutorial". */
function fold(token: string): string {
  return token.length > 3 && token.endsWith('s') && !token.endsWith('ss') && !NON_ASCII.test(token)
    ? token.slice(0, -1)
    : token
}

/** Lower-case, NFKC-folded text for matching. */
export function normalizeText(text: string): string {
  // NFKC folds full-width letters (ＲＵＳＴ → rust); ASCII, CJK ideographs, Hangul syllables and common dashes,
  // quotes and CJK brackets are already in NFKC (and never compose with a neighbour): skip the cost for those.
  // None of them but A–Z has a lower case either: text of only those, without A–Z, is its own normal form.
  if (!NEEDS_WORK.test(text)) return text
  return (NEEDS_NFKC.test(text) ? text.normalize('NFKC') : text).toLowerCase()
}

/** Any character outside ASCII, – — ‘ ’ “ ”, 、。《》〈〉「」『』, CJK Unified Ideographs (+ Ext. A), Hangul syllables. */
const NEEDS_NFKC =
  /[^\x00-\x7f\u2013\u2014\u2018\u2019\u201c\u201d\u3001\u3002\u3008-\u300f\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7a3]/
/** NEEDS_NFKC or an upper-case ASCII letter: a regex scan costs a fraction of a char-code loop in JavaScript. */
const NEEDS_WORK = new RegExp(`[A-Z]|${NEEDS_NFKC.source}`)

/** Words of non-CJK query text: letters and digits in any script, joined by . _ ' + - (node.js, gpt-4o, k8s). */
const WORD = /[\p{L}\p{N}]+(?:[._'+-][\p{L}\p{N}]+)*/gu

function words(text: string, into: string[]): string[] {
  const rest = text.replace(SYMBOL_TOKENS, (match) => {
    into.push(match)
    return ' '
  })
  if (NON_ASCII.test(rest)) for (const match of rest.matchAll(WORD)) into.push(match[0])
  else for (const match of rest.matchAll(ASCII_WORD)) into.push(match[0])
  return into
}

/** Query tokens: CJK runs are cut into words by Intl.Segmenter, the rest by `words`. */
function rawTokens(text: string): string[] {
  if (!hasCjk(text)) return words(text, [])
  const tokens: string[] = []
  const symbols: string[] = []
  const rest = text.replace(SYMBOL_TOKENS, (match) => {
    symbols.push(match)
    return ' '
  })
  // Segmenter splits unknown CJK words into single characters (编程 → 编, 程): rejoin such runs into one term.
  let run = ''
  for (const word of segment(rest)) {
    if (word.length === 1 && hasCjk(word)) {
      run += word
      continue
    }
    if (run !== '') tokens.push(run)
    run = ''
    if (hasCjk(word)) tokens.push(word)
    else words(word, tokens)
  }
  if (run !== '') tokens.push(run)
  return [...symbols, ...tokens]
}

/** A query's distinct terms; stopwords go unless nothing else is left. */
function queryTerms(query: string): string[] {
  const all = [...new Set(rawTokens(normalizeText(query)).map(fold))]
  const content = all.filter((term) => !STOPWORDS.has(term))
  return content.length > 0 ? content : all
}

interface IndexedText {
  text: string
}

/** Normalise title + snippet once; terms are then found with indexOf, without tokenising the document. */
function indexText(text: string): IndexedText {
  return { text: normalizeText(text) }
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u

/** True when `term` occurs in `text` as a whole word: no letter or digit before it, none (nor # or +) after it. */
function containsWord(text: string, term: string): boolean {
  for (let at = text.indexOf(term); at !== -1; at = text.indexOf(term, at + 1)) {
    if (at > 0 && isLetterOrDigitAt(text, at - 1)) continue
    let end = at + term.length
    // The plural of a folded term ("tutorial" → "tutorials"), mirroring `fold` on the query side.
    if (text[end] === 's' && !isWordTail(text[end + 1])) end++
    if (!isWordTail(text[end])) return true
  }
  return false
}

function isWordTail(char: string | undefined): boolean {
  return char !== undefined && (char === '#' || char === '+' || isLetterOrDigitAt(char, 0))
}

/** `LETTER_OR_DIGIT` on one UTF-16 unit, answering ASCII by char code: the Unicode regex costs more than the search. */
function isLetterOrDigitAt(text: string, at: number): boolean {
  const c = text.charCodeAt(at)
  if (c < 128) return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90)
  return LETTER_OR_DIGIT.test(text[at]!)
}

/** Share of terms found in the indexed text: whole words for Latin script, substrings for CJK. */
function coverage(terms: readonly string[], doc: IndexedText): number {
  if (terms.length === 0) return 0
  let found = 0
  for (const term of terms) {
    if (isCjkTerm(term) ? doc.text.includes(term) : containsWord(doc.text, term)) found++
  }
  return found / terms.length
}

// Query terms are few and repeat for every result of a `rank` call: classify each once.
const cjkTerms = new Map<string, boolean>()

function isCjkTerm(term: string): boolean {
  let cjk = cjkTerms.get(term)
  if (cjk === undefined) {
    if (cjkTerms.size >= 10_000) cjkTerms.clear()
    cjk = hasCjk(term)
    cjkTerms.set(term, cjk)
  }
  return cjk
}

/** Title and snippet of a result; either may be missing. */
export interface TextFields {
  title?: string | null
  snippet?: string | null
}

/** Pre-split query terms, so scoring many results tokenises each query once. */
export interface PreparedQueries {
  main: string[]
  subs: string[][]
  /** Every distinct term of `main` and `subs`, each looked for once per document. */
  terms: string[]
  cjk: boolean[]
  /** `main` and `subs` as indexes into `terms`. */
  mainIds: number[]
  subIds: number[][]
  /** One flag per term, reused by every document of the call. */
  found: Uint8Array
}

/** Split the query and sub-queries into terms once per `rank` call. */
export function prepareQueries(query: string, subQueries: readonly string[] = []): PreparedQueries {
  const main = queryTerms(typeof query === 'string' ? query : '')
  const subs = subQueries
    .filter((q): q is string => typeof q === 'string' && q.trim() !== '' && q !== query)
    .map(queryTerms)
    .filter((terms) => terms.length > 0)
  const terms: string[] = []
  const ids = new Map<string, number>()
  const idsOf = (list: string[]) =>
    list.map((term) => {
      let id = ids.get(term)
      if (id === undefined) {
        id = terms.length
        ids.set(term, id)
        terms.push(term)
      }
      return id
    })
  const mainIds = idsOf(main)
  const subIds = subs.map(idsOf)
  return { main, subs, terms, cjk: terms.map(isCjkTerm), mainIds, subIds, found: new Uint8Array(terms.length) }
}

/** Title and snippet as one searchable string; missing fields are empty. */
export function documentText(fields: TextFields): string {
  const title = typeof fields.title === 'string' ? fields.title : ''
  const snippet = typeof fields.snippet === 'string' ? fields.snippet : ''
  return `${title}\n${snippet}`
}

/** `keywordScore` on pre-split queries. */
export function keywordFromPrepared(prepared: PreparedQueries, fields: TextFields): number {
  return keywordFromText(prepared, documentText(fields))
}

/**
 * `keywordFromText(prepared, documentText({ title, snippet }))`, without joining or normalising the joined text:
 * title and snippet are normalised apart, and a term is in the document when it is in either. The same answer,
 * because no term holds a "\n", and the "\n" between them is a word boundary that neither NFKC nor lower-casing
 * (Final_Sigma included) looks across.
 */
export function keywordFromFields(prepared: PreparedQueries, title: string, snippet: string): number {
  const { terms, cjk, found } = prepared
  if (terms.length > 0) {
    const t = normalizeText(title)
    const s = normalizeText(snippet)
    for (let i = 0; i < terms.length; i++) {
      const term = terms[i]!
      found[i] = (cjk[i] ? t.includes(term) || s.includes(term) : containsWord(t, term) || containsWord(s, term))
        ? 1
        : 0
    }
  }
  const main = share(prepared.mainIds, found)
  if (prepared.subIds.length === 0) return round4(main)
  let best = main
  for (const ids of prepared.subIds) best = Math.max(best, share(ids, found))
  return round4((main + best) / 2)
}

/** `coverage` from per-term flags. */
function share(ids: readonly number[], found: Uint8Array): number {
  if (ids.length === 0) return 0
  let count = 0
  for (const id of ids) count += found[id]!
  return count / ids.length
}

/** `keywordFromPrepared` on a `documentText` the caller already built. */
export function keywordFromText(prepared: PreparedQueries, text: string): number {
  const doc = indexText(text)
  const main = coverage(prepared.main, doc)
  if (prepared.subs.length === 0) return round4(main)
  // Half for the user's own query, half for the best of all queries: a result that fully answers one
  // sub-query still counts, but never outranks one that covers what the user actually typed.
  let best = main
  for (const terms of prepared.subs) best = Math.max(best, coverage(terms, doc))
  return round4((main + best) / 2)
}
