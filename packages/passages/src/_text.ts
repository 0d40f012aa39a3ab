// Plain text, words and sentences of a markdown span. Every scan here is one forward pass over the
// string (no regex that can backtrack), so the cost is linear in the span's length.

/**
 * Han (with 々 and 〇), kana (with half-width katakana), Hangul syllables and compatibility and astral
 * ideographs: the scripts of core's `CJK_CLASS`, as code-point ranges, since this runs once per character
 * of every page.
 */
export function isCjkCodePoint(cp: number): boolean {
  return (
    (cp >= 0x4e00 && cp <= 0x9fff) ||
    (cp >= 0x3400 && cp <= 0x4dbf) ||
    (cp >= 0x3040 && cp <= 0x30ff) ||
    cp === 0x3005 ||
    cp === 0x3007 ||
    (cp >= 0xff66 && cp <= 0xff9f) ||
    (cp >= 0xac00 && cp <= 0xd7af) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0x20000 && cp <= 0x323af)
  )
}

/** Whether a CJK character counts as half a word: every CJK script but Hangul, which Korean spaces into words. */
function isUnspaced(cp: number): boolean {
  return isCjkCodePoint(cp) && (cp < 0xac00 || cp > 0xd7af)
}

const WHITE_SPACE = /\s/

/** JavaScript's white space (what `String.prototype.trim` removes), fast for ASCII. */
export function isSpace(code: number): boolean {
  if (code < 128) return code === 32 || (code >= 9 && code <= 13)
  return WHITE_SPACE.test(String.fromCharCode(code))
}

// A link or image target longer than this is not skipped as a target: the `(` was prose, not a URL.
const MAX_LINK_TARGET = 2048

/**
 * The readable text of a markdown span: link and image targets dropped (`[text](url)` → `text`), the
 * syntax characters `[ ] ! * _ \` # | >` turned into spaces. Used for counting and indexing, never shown.
 */
export function plainText(markdown: string): string {
  const parts: string[] = []
  let copied = 0
  const n = markdown.length
  // Target scans stop at MAX_LINK_TARGET each; this total keeps a page of unclosed `](` linear too.
  let scanBudget = 2 * n + MAX_LINK_TARGET
  for (let i = 0; i < n; i++) {
    const code = markdown.charCodeAt(i)
    if (code >= 128 || !SYNTAX[code]) continue
    parts.push(markdown.slice(copied, i), ' ')
    copied = i + 1
    if (code === 93 /* ] */ && markdown.charCodeAt(i + 1) === 40 /* ( */ && scanBudget > 0) {
      const close = linkTargetEnd(markdown, i + 2)
      scanBudget -= close === -1 ? Math.min(MAX_LINK_TARGET, n - i) : close - i
      if (close !== -1) {
        copied = close + 1
        i = close
      }
    }
  }
  parts.push(markdown.slice(copied))
  return parts.join('')
}

const SYNTAX: boolean[] = Array.from({ length: 128 }, (_, code) => '[]!*_`#|>\\~'.includes(String.fromCharCode(code)))

/** Index of the `)` closing a link target that starts at `from`, or -1 (nested parentheses counted). */
function linkTargetEnd(text: string, from: number, end = text.length): number {
  let depth = 0
  const limit = Math.min(end, from + MAX_LINK_TARGET)
  for (let j = from; j < limit; j++) {
    const c = text[j]
    if (c === '\n') return -1
    if (c === '(') depth++
    else if (c === ')') {
      if (depth === 0) return j
      depth--
    }
  }
  return -1
}

/**
 * Words of a markdown span as a reader counts them: runs of letters and digits count one each; a
 * character of a script written without spaces (Chinese, Japanese) counts half, since a Chinese word is
 * about two characters. Link and image targets are skipped in place, without building the plain text.
 */
export function countMarkdownWords(markdown: string, start: number, end: number): number {
  let words = 0
  let inWord = false
  let scanBudget = 2 * (end - start) + MAX_LINK_TARGET
  for (let i = start; i < end; ) {
    const cp = markdown.codePointAt(i)!
    if (cp === 93 /* ] */ && markdown.charCodeAt(i + 1) === 40 /* ( */ && scanBudget > 0) {
      const close = linkTargetEnd(markdown, i + 2, end)
      scanBudget -= close === -1 ? Math.min(MAX_LINK_TARGET, end - i) : close - i
      if (close !== -1) {
        inWord = false
        i = close + 1
        continue
      }
    }
    if (isUnspaced(cp)) {
      words += 0.5
      inWord = false
    } else if (isWordChar(cp < 0x80 ? '' : String.fromCodePoint(cp), cp)) {
      if (!inWord) words++
      inWord = true
    } else inWord = false
    i += cp > 0xffff ? 2 : 1
  }
  return words
}

const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u

function isWordChar(ch: string, cp: number): boolean {
  if (cp < 0x80) return (cp >= 48 && cp <= 57) || (cp >= 65 && cp <= 90) || (cp >= 97 && cp <= 122)
  return WORD_CHAR.test(ch)
}

/**
 * Where to cut raw text in [from, to) after about `maxWords` words, counted as `countMarkdownWords` does but on
 * any non-space run: at a space, or between two characters of a script written without spaces.
 * Also cuts after `maxChars` characters (at a code point boundary). Always past `from`, so a caller
 * cutting in a loop advances.
 */
export function cutAfterWords(text: string, from: number, to: number, maxWords: number, maxChars: number): number {
  let words = 0
  let inWord = false
  let i = from
  while (i < to) {
    if (i - from >= maxChars) return i
    const cp = text.codePointAt(i)!
    const size = cp > 0xffff ? 2 : 1
    if (isUnspaced(cp)) {
      words += 0.5
      inWord = false
      i += size
      if (words >= maxWords) return i
      continue
    }
    const space = cp <= 0xffff && isSpace(cp)
    if (space && inWord && words >= maxWords) return i
    if (!space && !inWord) words++
    inWord = !space
    i += size
  }
  return to
}

const SENTENCE_END = new Set(['.', '!', '?', '。', '！', '？', '；'])
const FULL_WIDTH_END = new Set(['。', '！', '？', '；'])

/**
 * Offsets (relative to `text`) just past each sentence end: `. ! ?` followed by white space, or a
 * full-width `。！？；`, which needs no space after it. The last sentence ends at `text.length`.
 */
export function sentenceEnds(text: string): number[] {
  const ends: number[] = []
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!
    if (!SENTENCE_END.has(ch)) continue
    const next = text[i + 1]
    if (FULL_WIDTH_END.has(ch) || next === undefined || next === ' ' || next === '\n' || next === '\t') ends.push(i + 1)
  }
  if (ends.at(-1) !== text.length) ends.push(text.length)
  return ends
}

/** A heading line's text as a reader sees it: no `#`, no link targets, no `¶` or trailing `[edit]` anchors. */
export function headingText(line: string): string {
  const words = plainText(line.replace(/^ {0,3}#{1,6}/, ''))
    .split(/\s+/)
    .filter((word) => word !== '' && word !== '¶')
  // NOTE(wikipedia): section headings end in an "[edit]" link.
  if (words.length > 1 && words.at(-1) === 'edit') words.pop()
  return words.join(' ')
}
