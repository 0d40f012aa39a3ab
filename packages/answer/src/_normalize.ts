// The one normal form a quote and a passage are compared in. Every step is a single linear pass: compatibility
// decomposition (NFKD: full-width forms, ligatures, `…` → `...`), lower case with combining marks dropped (final
// sigma as sigma), typographic marks to ASCII, markdown emphasis, code marks and link targets dropped, quotation
// marks dropped, white space collapsed (and removed beside CJK characters, which are written without spaces).
// Apart from link targets and white space each step maps one character on its own (no context), so the form of a
// slice of the text (at code point boundaries) is a slice of the text's form: the property the tests check.
import { CJK_CLASS } from '@search-layer/core/text'

// Curly and low single quotes, prime → '; curly, low and angle double quotes, CJK corner brackets → dropped.
const SINGLE_QUOTES = /[\u2018\u2019\u201a\u201b\u2032]/g
const DOUBLE_QUOTES = /["\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb\u300c\u300d\u300e\u300f\u301d\u301e]/g
// Hyphen, non-breaking hyphen, figure dash, en and em dash, horizontal bar, minus sign.
const DASHES = /[\u2010\u2011\u2012\u2013\u2014\u2015\u2212]/g
// A markdown link's target (bounded: no backtracking runs past 500 characters).
const LINK_TARGET = /\]\([^()\s]{0,500}\)/g
// Emphasis, code and link brackets, escapes: absent from what a reader (and a model) takes as the words.
const MARKUP = /[*_~`[\]\\]/g
const SPACES = /\s+/g
const MARKS = /\p{M}/gu
const FINAL_SIGMA = /\u03c2/g
const CJK_SPACE = new RegExp(` (?=[${CJK_CLASS}])|(?<=[${CJK_CLASS}]) `, 'gu')

/** The text in the normal form quotes are matched in. */
export function normalizeForMatch(text: string): string {
  return text
    .normalize('NFKD')
    .toLowerCase()
    .replace(MARKS, '')
    .replace(FINAL_SIGMA, '\u03c3')
    .replace(SINGLE_QUOTES, "'")
    .replace(DOUBLE_QUOTES, '')
    .replace(DASHES, '-')
    .replace(LINK_TARGET, ']')
    .replace(MARKUP, '')
    .replace(SPACES, ' ')
    .replace(CJK_SPACE, '')
    .trim()
}

const EDGE = /[\s\p{P}\p{S}]/u

/** The normalised quote without punctuation or spaces at either end (`fetch.` matches `fetch,`). One pass. */
export function trimEdges(text: string): string {
  let start = 0
  let end = text.length
  while (start < end && EDGE.test(text[start]!)) start++
  while (end > start && EDGE.test(text[end - 1]!)) end--
  return text.slice(start, end)
}

const CJK_CHAR = new RegExp(`[${CJK_CLASS}]`, 'u')

/** Words of a normalised text: space-separated tokens, a CJK character counting half a word. */
export function wordCount(normalized: string): number {
  let words = 0
  let inToken = false
  for (const ch of normalized) {
    if (ch === ' ') inToken = false
    else if (CJK_CHAR.test(ch)) {
      words += 0.5
      inToken = false
    } else if (!inToken) {
      words++
      inToken = true
    }
  }
  return words
}
