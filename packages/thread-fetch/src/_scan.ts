// Linear scanners for the reference extractor. Comments and issue bodies are written by anyone, so every scan
// here reads each character a bounded number of times whatever the input: no regex that can backtrack over an
// unbounded run, no trim that recounts the string per character. Each one returns exactly what the regex it
// replaced returned (property tests hold them to it).

/** `[start, end)` offsets into a text. */
export type Range = readonly [number, number]

const BACKTICK = 0x60
const TILDE = 0x7e
const SPACE = 0x20
const NEWLINE = 0x0a

/** Where `^` matches in a multiline JS regex: after \n, \r, U+2028 and U+2029. */
function isLineTerminator(code: number): boolean {
  return code === NEWLINE || code === 0x0d || code === 0x2028 || code === 0x2029
}

/** The fence (` or ~, repeated at least `min` times) after at most three spaces at `at`: its end, or -1. */
function fenceEnd(text: string, at: number, char: number, min: number): number {
  let i = at
  while (i < at + 3 && text.charCodeAt(i) === SPACE) i++
  if (text.charCodeAt(i) !== char) return -1
  const start = i
  while (text.charCodeAt(i) === char) i++
  return i - start >= min ? i : -1
}

/**
 * Fenced code blocks: an opening line of three or more backticks or tildes (after at most three spaces) up to
 * the first later line that starts with at least as many of the same character, or to the end of the text.
 * Same ranges as `/^ {0,3}(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:^ {0,3}\1[^\n]*$|(?![\s\S]))/gm`.
 */
export function fencedCodeRanges(text: string): Range[] {
  const out: Range[] = []
  const n = text.length
  let p = 0
  while (p < n) {
    if (p === 0 || isLineTerminator(text.charCodeAt(p - 1))) {
      let i = p
      while (i < p + 3 && text.charCodeAt(i) === SPACE) i++
      const char = text.charCodeAt(i)
      if (char === BACKTICK || char === TILDE) {
        const runEnd = fenceEnd(text, p, char, 3)
        if (runEnd !== -1) {
          const newline = text.indexOf('\n', runEnd)
          // No newline after this opening means none after any later one either.
          if (newline === -1) break
          const end = closingFenceEnd(text, newline + 1, char, runEnd - i)
          out.push([p, end])
          p = end
          continue
        }
      }
    }
    p++
  }
  return out
}

/** End of the first line from `from` on that closes a fence of `length` × `char`, else the text's end. */
function closingFenceEnd(text: string, from: number, char: number, length: number): number {
  const n = text.length
  for (let q = from; q < n; q++) {
    if (q !== from && !isLineTerminator(text.charCodeAt(q - 1))) continue
    const runEnd = fenceEnd(text, q, char, length)
    if (runEnd === -1) continue
    const newline = text.indexOf('\n', runEnd)
    return newline === -1 ? n : newline
  }
  return n
}

/** `<!-- … -->` comments, each to the first `-->` after it. Same ranges as `/<!--[\s\S]*?-->/g`. */
export function htmlCommentRanges(text: string): Range[] {
  const out: Range[] = []
  for (let from = 0; ; ) {
    const start = text.indexOf('<!--', from)
    if (start === -1) break
    const close = text.indexOf('-->', start + 4)
    // An unclosed comment leaves every later one unclosed too.
    if (close === -1) break
    out.push([start, close + 3])
    from = close + 3
  }
  return out
}

/**
 * Marks inline code spans in `marks` (1 per character): a backtick, one or more characters other than a backtick
 * or newline, a backtick. Same spans as `/`[^`\n]+`/g`, without a match object or a range per span: a body of
 * `\r```\r` repeated, 390 KB, has 100,000 of them, and allocating each took 400 ms.
 */
export function markInlineCode(text: string, marks: Uint8Array): void {
  let newline = -1
  for (let open = text.indexOf('`'); open !== -1; ) {
    const close = text.indexOf('`', open + 1)
    if (close === -1) return
    if (newline < open) {
      newline = text.indexOf('\n', open)
      if (newline === -1) newline = text.length
    }
    // Neither an empty span nor one across a line: the closing backtick is where the next attempt starts.
    if (close === open + 1 || newline < close) {
      open = close
      continue
    }
    for (let i = open; i <= close; i++) marks[i] = 1
    open = text.indexOf('`', close + 1)
  }
}

/** A markdown link `[label](https://…)`: where it starts and ends, its raw label and its URL. */
export interface MarkdownLink {
  start: number
  end: number
  label: string
  url: string
}

const MAX_LABEL_CHARS = 500
// Everything after the label's `]`: `(`, optional `<`, the URL with balanced parentheses, `>`, a title, `)`.
// Its parts are delimited by characters the neighbouring classes exclude, so a failed attempt backtracks
// linearly; `markdownLinks` runs it at most once per `]`.
const LINK_TAIL_RE =
  /\(\s*<?(https?:\/\/[^\s()<>]*(?:\([^\s()<>]*\)[^\s()<>]*)*)>?(?:\s+(?:"[^"\n]*"|'[^'\n]*'))?\s*\)/y

/**
 * Markdown inline links to http(s) URLs. Same matches as
 * `/\[([^\]\n]{0,500})\]\(\s*<?(https?:\/\/…)>?(?:\s+(?:"…"|'…'))?\s*\)/g`, found without re-reading the label
 * for every `[` and without retrying the tail after a `]` that already failed; the first `max` only.
 */
export function markdownLinks(text: string, max = Number.POSITIVE_INFINITY): MarkdownLink[] {
  const out: MarkdownLink[] = []
  let stop = -1
  let failedTail = -1
  for (let start = text.indexOf('['); start !== -1; start = text.indexOf('[', start + 1)) {
    // The label runs to the first `]` or newline; every `[` before that stop shares it.
    if (stop <= start) {
      stop = start + 1
      while (stop < text.length && text[stop] !== ']' && text[stop] !== '\n') stop++
    }
    if (text[stop] !== ']' || stop - start - 1 > MAX_LABEL_CHARS || stop === failedTail) continue
    LINK_TAIL_RE.lastIndex = stop + 1
    const tail = LINK_TAIL_RE.exec(text)
    if (!tail) {
      failedTail = stop
      continue
    }
    const end = stop + 1 + tail[0].length
    out.push({ start, end, label: text.slice(start + 1, stop), url: tail[1]! })
    if (out.length >= max) break
    start = end - 1
  }
  return out
}

const SENTENCE_PUNCTUATION = new Set(['.', ',', ':', ';', '!', '?', '*', '_', '~', "'", '"'])
const OPENER: Readonly<Record<string, string | undefined>> = { ')': '(', ']': '[', '}': '{' }

/**
 * Drops trailing punctuation and unbalanced closing brackets, which belong to the sentence, not the URL.
 * Counts the brackets once, in an array indexed by character code (read for brackets only) (a `Map` update per character made a 1 MiB
 * URL cost 300 ms), and updates the counts as it drops characters from the end.
 */
export function trimUrl(url: string): string {
  const counts = new Int32Array(128)
  for (let i = 0; i < url.length; i++) {
    const code = url.charCodeAt(i)
    if (code < 128) counts[code]!++
  }
  let end = url.length
  while (end > 0) {
    const last = url[end - 1]!
    const opener = OPENER[last]
    const drop =
      SENTENCE_PUNCTUATION.has(last) ||
      (opener !== undefined && counts[opener.charCodeAt(0)]! < counts[last.charCodeAt(0)]!)
    if (!drop) break
    if (opener !== undefined) counts[last.charCodeAt(0)]!--
    end--
  }
  return url.slice(0, end)
}
