import { hasHan } from '@search-layer/core/text'
import type { Lang } from './_data.js'

export interface TermHit<P> {
  term: string
  lang: Lang
  payload: P
}

export interface TermMatcher<P> {
  match(text: NormalizedText): TermHit<P>[]
}

/** A query prepared once for every matcher: normalised text and a Chinese word-boundary test. */
export interface NormalizedText {
  text: string
  hasHan: boolean
  /** True when a Chinese word boundary falls at this offset. */
  isBoundary(offset: number): boolean
}

// Built on first use: constructing it loads ICU's Chinese dictionary (~9 ms), which English-only processes never need.
let segmenter: Intl.Segmenter | undefined

/** Same normalisation for the query and for the data: NFKC folds full-width forms, case and spacing are ignored. */
export function normalize(raw: string): NormalizedText {
  const text = raw
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .replace(/[\s\p{Cc}]+/gu, ' ')
    .trim()
  return { text, hasHan: hasHan(text), isBoundary: (offset) => isBoundary(text, offset) }
}

// Segmenting a whole long Chinese text is superlinear in ICU; a window around the offset decides the same boundary.
const WINDOW = 12

function isBoundary(text: string, offset: number): boolean {
  if (offset <= 0 || offset >= text.length) return true
  const start = Math.max(0, offset - WINDOW)
  const local = offset - start
  segmenter ??= new Intl.Segmenter('zh', { granularity: 'word' })
  for (const seg of segmenter.segment(text.slice(start, Math.min(text.length, offset + WINDOW)))) {
    if (seg.index === local) return true
    if (seg.index > local) return false
  }
  return false
}

// Why no regular expression: one alternation of every term, with Unicode-property lookarounds, cost ~3 ms to
// compile on a process's first query (V8 compiles a regex on its first exec, then again to machine code). A Map
// from a term's first character to its terms, and character tests at the two ends, find the same hits.

/** A language's terms grouped by their first UTF-16 unit, longest first: the only terms a position can start. */
type TermIndex = ReadonlyMap<number, readonly string[]>

function indexTerms(terms: Iterable<string>): TermIndex {
  const index = new Map<number, string[]>()
  for (const term of terms) {
    const first = term.charCodeAt(0)
    const group = index.get(first)
    if (group) group.push(term)
    else index.set(first, [term])
  }
  for (const group of index.values()) group.sort((a, b) => b.length - a.length)
  return index
}

/** The longest term written at `at` whose end `accept` takes, or undefined. */
function longestTermAt(
  text: string,
  at: number,
  index: TermIndex,
  accept: (end: number) => boolean,
): string | undefined {
  const candidates = index.get(text.charCodeAt(at))
  if (candidates === undefined) return undefined
  for (const term of candidates) {
    if (text.startsWith(term, at) && accept(at + term.length)) return term
  }
  return undefined
}

/** Each language's terms, normalised as queries are, with their payloads; the first entry of a term wins. */
export function termsByLang<P>(
  entries: readonly { term: string; lang: Lang; payload: P }[],
): Record<Lang, Map<string, P>> {
  const byLang: Record<Lang, Map<string, P>> = { en: new Map(), zh: new Map() }
  for (const { term, lang, payload } of entries) {
    const key = normalize(term).text
    if (key && !byLang[lang].has(key)) byLang[lang].set(key, payload)
  }
  return byLang
}

export interface CompileTermsOptions<P> {
  /** Terms that always consume their text, boundary or not (blocked phrases such as "还是不"): nothing inside them counts. */
  isShadow?: (payload: P) => boolean
}

/**
 * Compiles term tables into a matcher that reads the text left to right and takes the longest term at each place,
 * so hits are leftmost-longest and never overlap (a longer term shadows the shorter terms inside it).
 */
export function compileTerms<P>(
  entries: readonly { term: string; lang: Lang; payload: P }[],
  options: CompileTermsOptions<P> = {},
): TermMatcher<P> {
  const byLang = termsByLang(entries)
  const en = indexTerms(byLang.en.keys())
  const zh = indexTerms(byLang.zh.keys())
  return {
    match(input) {
      const hits = matchEnglish(input.text, en, byLang.en)
      // Cheap pre-check so queries without any Chinese term never pay for segmentation.
      if (zh.size > 0 && input.hasHan) hits.push(...matchChinese(input, zh, byLang.zh, options.isShadow))
      return hits
    },
  }
}

function matchEnglish<P>(text: string, index: TermIndex, payloads: ReadonlyMap<string, P>): TermHit<P>[] {
  const hits: TermHit<P>[] = []
  const endsWord = (end: number) => isEnglishEnd(text, end)
  let at = 0
  while (at < text.length) {
    const term = isEnglishStart(text, at) ? longestTermAt(text, at, index, endsWord) : undefined
    if (term === undefined) {
      at++
      continue
    }
    hits.push({ term, lang: 'en', payload: payloads.get(term)! })
    at += term.length
  }
  return hits
}

function matchChinese<P>(
  input: NormalizedText,
  index: TermIndex,
  payloads: ReadonlyMap<string, P>,
  isShadow: ((payload: P) => boolean) | undefined,
): TermHit<P>[] {
  const hits: TermHit<P>[] = []
  const { text } = input
  let at = 0
  while (at < text.length) {
    const longest = longestTermAt(text, at, index, anyEnd)
    // A blocked phrase consumes its text even where it does not end on a boundary, so nothing inside it counts.
    if (longest !== undefined && isShadow?.(payloads.get(longest)!)) {
      if (isTerm(input, at + longest.length)) hits.push({ term: longest, lang: 'zh', payload: payloads.get(longest)! })
      at += longest.length
      continue
    }
    // When the longest term runs into the next word ("哪个更" in "哪个|更好"), a shorter one here ("哪个") still counts.
    const term = longestTermAt(text, at, index, (end) => isTerm(input, end))
    if (term === undefined) {
      at++
      continue
    }
    hits.push({ term, lang: 'zh', payload: payloads.get(term)! })
    at += term.length
  }
  return hits
}

const anyEnd = () => true

// A Chinese term counts when it ends on a word boundary. Start is not required because Chinese compounds are
// head-final (新手教程, 技术文档 end in the signal), while a term that merely begins a longer word (新闻学) does not
// end on a boundary unless the segmenter splits it, which the data's blocked list covers.
function isTerm(input: NormalizedText, end: number): boolean {
  return input.isBoundary(end)
}

// English word boundaries are Latin letters and digits only: a Han character next to an English term is a boundary
// ("Rust教程", "k8s部署"). An apostrophe before a term joins it to the word ("don't" holds no "t"); after a term it
// joins only when a letter follows ("what's" is not "what", "users' guide" still has "users").
const APOSTROPHE = 0x27
const UNDERSCORE = 0x5f
const LATIN = /\p{Script=Latin}/u
const NUMBER = /\p{N}/u

function isEnglishStart(text: string, at: number): boolean {
  if (at === 0) return true
  const before = codePointBefore(text, at)
  return before !== APOSTROPHE && !isWordChar(before)
}

function isEnglishEnd(text: string, end: number): boolean {
  const after = text.codePointAt(end)
  if (after === undefined) return true
  if (after === APOSTROPHE) return !isLatin(text.codePointAt(end + 1))
  return !isWordChar(after)
}

// ASCII is tested by code; only other characters go to the (small) Unicode-property regexes.
function isAsciiLetter(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a)
}

function isLatin(code: number | undefined): boolean {
  if (code === undefined) return false
  return code < 0x80 ? isAsciiLetter(code) : LATIN.test(String.fromCodePoint(code))
}

function isWordChar(code: number): boolean {
  if (code < 0x80) return isAsciiLetter(code) || (code >= 0x30 && code <= 0x39) || code === UNDERSCORE
  const char = String.fromCodePoint(code)
  return LATIN.test(char) || NUMBER.test(char)
}

/** The code point that ends just before `at`: a surrogate pair counts as one character, as in a `u` regex. */
function codePointBefore(text: string, at: number): number {
  const last = text.charCodeAt(at - 1)
  const isLow = last >= 0xdc00 && last <= 0xdfff
  if (isLow && at >= 2) {
    const first = text.charCodeAt(at - 2)
    if (first >= 0xd800 && first <= 0xdbff) return text.codePointAt(at - 2)!
  }
  return last
}
