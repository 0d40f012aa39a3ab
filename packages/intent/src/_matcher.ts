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

const HAN = /\p{Script=Han}/u
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
  return { text, hasHan: HAN.test(text), isBoundary: (offset) => isBoundary(text, offset) }
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

function escapeRegExp(term: string): string {
  return term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

// Latin letters and digits only: a Han character next to an English term is a boundary ("Rust教程", "k8s部署").
const EN_LEFT = "(?<![\\p{Script=Latin}\\p{N}_'])"
const EN_RIGHT = "(?![\\p{Script=Latin}\\p{N}_]|'[\\p{Script=Latin}])"

export interface CompileTermsOptions<P> {
  /** Terms that always consume their text, boundary or not (blocked phrases such as "还是不"): nothing inside them counts. */
  isShadow?: (payload: P) => boolean
}

/**
 * Compiles term tables into one alternation per language, longest term first, so a single left-to-right pass
 * yields leftmost-longest, non-overlapping hits (a longer term shadows the shorter terms inside it).
 */
export function compileTerms<P>(
  entries: readonly { term: string; lang: Lang; payload: P }[],
  options: CompileTermsOptions<P> = {},
): TermMatcher<P> {
  const byLang: Record<Lang, Map<string, P>> = { en: new Map(), zh: new Map() }
  for (const { term, lang, payload } of entries) {
    const key = normalize(term).text
    if (key && !byLang[lang].has(key)) byLang[lang].set(key, payload)
  }
  const build = (lang: Lang): RegExp | undefined => {
    const terms = [...byLang[lang].keys()].sort((a, b) => b.length - a.length)
    if (terms.length === 0) return undefined
    const alternation = terms.map((t) => escapeRegExp(t).replace(/ /g, '\\s+')).join('|')
    return lang === 'en'
      ? new RegExp(`${EN_LEFT}(?:${alternation})${EN_RIGHT}`, 'gu')
      : new RegExp(`(?:${alternation})`, 'gu')
  }
  const en = build('en')
  const zh = build('zh')
  // Cheap pre-check so queries without any Chinese term never pay for segmentation.
  return {
    match(input) {
      const hits: TermHit<P>[] = []
      if (en) {
        for (const m of input.text.matchAll(en)) {
          const term = m[0].replace(/\s+/g, ' ')
          const payload = byLang.en.get(term)
          if (payload !== undefined) hits.push({ term, lang: 'en', payload })
        }
      }
      if (zh && input.hasHan) {
        zh.lastIndex = 0
        for (let m = zh.exec(input.text); m !== null; m = zh.exec(input.text)) {
          if (options.isShadow?.(byLang.zh.get(m[0])!)) {
            if (isTerm(input, m.index + m[0].length))
              hits.push({ term: m[0], lang: 'zh', payload: byLang.zh.get(m[0])! })
            continue
          }
          const term = longestTermAt(input, m.index, m[0], byLang.zh)
          if (term === undefined) {
            // Nothing here ends on a word boundary: resume one character on, where another term may start.
            zh.lastIndex = m.index + 1
            continue
          }
          hits.push({ term, lang: 'zh', payload: byLang.zh.get(term)! })
          zh.lastIndex = m.index + term.length
        }
      }
      return hits
    },
  }
}

/**
 * The longest term starting at `at` that ends on a word boundary: the regex found `longest`, but when that one
 * runs into the next word ("哪个更" in "哪个|更好") a shorter term at the same place ("哪个") still counts.
 */
function longestTermAt<P>(
  input: NormalizedText,
  at: number,
  longest: string,
  terms: ReadonlyMap<string, P>,
): string | undefined {
  for (let length = longest.length; length > 0; length--) {
    const candidate = longest.slice(0, length)
    if (terms.has(candidate) && isTerm(input, at + length)) return candidate
  }
  return undefined
}

// A Chinese term counts when it ends on a word boundary. Start is not required because Chinese compounds are
// head-final (新手教程, 技术文档 end in the signal), while a term that merely begins a longer word (新闻学) does not
// end on a boundary unless the segmenter splits it, which the data's blocked list covers.
function isTerm(input: NormalizedText, end: number): boolean {
  return input.isBoundary(end)
}
