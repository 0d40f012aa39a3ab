import { decodeEntities, isWhitespace } from '@search-layer/core/text'

// Comments are written by anyone, so tags are found by scanners rather than backtracking patterns: a pattern like
// `<a\s[^>]*?href=(["'])(.*?)\1` re-reads the rest of the tag from every `<a ` and every quote when what closes
// it never comes (`'<a '.repeat(n)` was quadratic, `'<a href="'.repeat(n)` worse). Each scanner below gives what
// the pattern in its comment gave (`test/html-text-regex-reference.ts` keeps those patterns), in one pass over
// its input with lookup tables built in one more, so the whole conversion is linear.

const GT = 0x3e
const DOUBLE_QUOTE = 0x22
const SINGLE_QUOTE = 0x27
const EQUALS = 0x3d

/** Whether `text` holds `lower` at `at`, ASCII letters in either case (as the `i` flag compares them). */
function startsWithIgnoringCase(text: string, at: number, lower: string): boolean {
  if (at < 0 || at + lower.length > text.length) return false
  for (let k = 0; k < lower.length; k++) {
    let code = text.charCodeAt(at + k)
    if (code >= 0x41 && code <= 0x5a) code |= 0x20
    if (code !== lower.charCodeAt(k)) return false
  }
  return true
}

/** First index ≥ `from` of `lower` (which starts with `<`), ignoring ASCII case; -1 if none. */
function indexOfTag(text: string, lower: string, from: number): number {
  for (let i = text.indexOf('<', from); i >= 0; i = text.indexOf('<', i + 1))
    if (startsWithIgnoringCase(text, i, lower)) return i
  return -1
}

/** Last index of `lower` (which starts with `<`), ignoring ASCII case; -1 if none. */
function lastIndexOfTag(text: string, lower: string): number {
  for (let i = text.lastIndexOf('<'); i >= 0; i = i === 0 ? -1 : text.lastIndexOf('<', i - 1))
    if (startsWithIgnoringCase(text, i, lower)) return i
  return -1
}

/** For every index i, the first index ≥ i holding `char`, or `text.length`. */
function nextIndexTable(text: string, char: string): Int32Array {
  const next = new Int32Array(text.length + 1)
  let at = text.length
  next[at] = at
  for (let i = text.lastIndexOf(char); i >= 0; i = i === 0 ? -1 : text.lastIndexOf(char, i - 1)) {
    next.fill(at, i + 1, at)
    next[i] = i
    at = i
  }
  next.fill(at, 0, at)
  return next
}

function skipSpaces(text: string, from: number): number {
  let i = from
  while (i < text.length && isWhitespace(text.charCodeAt(i))) i++
  return i
}

/** `text.replace(/<[^>]+>/g, '')`. */
function stripTags(text: string): string {
  let out = ''
  let kept = 0
  for (let open = text.indexOf('<'); open >= 0; ) {
    if (open + 1 >= text.length || text.charCodeAt(open + 1) === GT) {
      open = text.indexOf('<', open + 1)
      continue
    }
    const close = text.indexOf('>', open + 2)
    if (close < 0) break // no later `<` can close either
    out += text.slice(kept, open)
    kept = close + 1
    open = text.indexOf('<', kept)
  }
  return kept === 0 ? text : out + text.slice(kept)
}

/** `<pre[^>]*>\s*(?:<code[^>]*>)?([\s\S]*?)(?:<\/code>\s*)?<\/pre>` (gi) → a fenced block of the tag-free code. */
function replacePreBlocks(text: string): string {
  const lastClose = lastIndexOfTag(text, '</pre>')
  let out = ''
  let kept = 0
  for (let open = indexOfTag(text, '<pre', 0); open >= 0; open = indexOfTag(text, '<pre', kept)) {
    const openEnd = text.indexOf('>', open + 4)
    if (openEnd < 0) break
    const body = skipSpaces(text, openEnd + 1)
    // Past the last `</pre>` no `<pre` can match, this one or any later one.
    if (body > lastClose) break
    let contentStart = body
    if (startsWithIgnoringCase(text, body, '<code')) {
      const codeEnd = text.indexOf('>', body + 5)
      // The pattern takes the `<code>` tag when a `</pre>` follows it, else reads the code from `body`.
      if (codeEnd >= 0 && codeEnd < lastClose) contentStart = codeEnd + 1
    }
    const close = indexOfTag(text, '</pre>', contentStart)
    let contentEnd = close
    let beforeClose = close
    while (beforeClose > contentStart && isWhitespace(text.charCodeAt(beforeClose - 1))) beforeClose--
    if (beforeClose - 7 >= contentStart && startsWithIgnoringCase(text, beforeClose - 7, '</code>'))
      contentEnd = beforeClose - 7
    out += `${text.slice(kept, open)}\n\n\`\`\`\n${stripTags(text.slice(contentStart, contentEnd))}\n\`\`\`\n\n`
    kept = close + 6
  }
  return kept === 0 ? text : out + text.slice(kept)
}

/** One tag with a quoted attribute: `<name\s[^>]*?attr\s*=\s*(["'])(.*?)\1[^>]*>`, then `([\s\S]*?)closer` if any. */
interface QuotedAttributeTag {
  /** `<a`, `<img` (lowercase). */
  open: string
  /** `href`, `src` (lowercase). */
  attribute: string
  /** `</a>` when the tag's content up to it is part of the match. */
  closer?: string
}

/**
 * Replaces every match of the `QuotedAttributeTag` pattern as a backtracking matcher would, in linear time.
 * Where the pattern tries each `attr=` of a tag in turn, then each later quote as the value's end, this finds
 * the answer in tables: a value ending at its first quote ends the tag soonest (at the first `>` after it), so
 * only that end needs checking, and an `attr=` leads to a match exactly when that `>` exists (and, with a
 * closer, comes before the last closer). The first such `attr=` inside a tag (before its first `>`) wins.
 */
function replaceQuotedAttributeTags(
  text: string,
  tag: QuotedAttributeTag,
  replace: (value: string, content: string) => string,
): string {
  const tagEndLimit = tag.closer === undefined ? text.length : lastIndexOfTag(text, tag.closer)
  if (tagEndLimit < 0 || indexOfTag(text, tag.open, 0) < 0) return text
  const nextGt = nextIndexTable(text, '>')
  const nextDoubleQuote = nextIndexTable(text, '"')
  const nextSingleQuote = nextIndexTable(text, "'")
  // Line terminators for `.`: `\r` is gone by now (htmlToText turned it into `\n`).
  const nextNewline = nextIndexTable(text, '\n')
  const nextLineSeparator = nextIndexTable(text, '\u2028')
  const nextParagraphSeparator = nextIndexTable(text, '\u2029')

  /** Index of the opening quote of an `attr\s*=\s*["']` at `at`, or -1. */
  const openingQuote = (at: number): number => {
    if (!startsWithIgnoringCase(text, at, tag.attribute)) return -1
    let i = skipSpaces(text, at + tag.attribute.length)
    if (text.charCodeAt(i) !== EQUALS) return -1
    i = skipSpaces(text, i + 1)
    const quote = text.charCodeAt(i)
    return quote === DOUBLE_QUOTE || quote === SINGLE_QUOTE ? i : -1
  }
  /** Where the quoted value of an `attr=` at `at` ends (its closing quote), or -1 if it cannot lead to a match. */
  const valueEnd = (at: number): number => {
    const quote = openingQuote(at)
    if (quote < 0) return -1
    const close = (text.charCodeAt(quote) === DOUBLE_QUOTE ? nextDoubleQuote : nextSingleQuote)[quote + 1]!
    const lineEnd = Math.min(nextNewline[quote + 1]!, nextLineSeparator[quote + 1]!, nextParagraphSeparator[quote + 1]!)
    if (close >= text.length || lineEnd < close) return -1
    return nextGt[close + 1]! < tagEndLimit ? close : -1
  }
  const initial = tag.attribute.charCodeAt(0)
  const firstAttribute = new Int32Array(text.length + 1)
  firstAttribute[text.length] = text.length
  for (let i = text.length - 1; i >= 0; i--)
    firstAttribute[i] = (text.charCodeAt(i) | 0x20) === initial && valueEnd(i) >= 0 ? i : firstAttribute[i + 1]!

  let out = ''
  let kept = 0
  for (let open = indexOfTag(text, tag.open, 0); open >= 0; ) {
    const inside = open + tag.open.length + 1
    if (
      inside > text.length ||
      !isWhitespace(text.charCodeAt(inside - 1)) ||
      firstAttribute[inside]! >= nextGt[inside]!
    ) {
      open = indexOfTag(text, tag.open, open + 1)
      continue
    }
    const attribute = firstAttribute[inside]!
    const valueStart = openingQuote(attribute) + 1
    const close = valueEnd(attribute)
    const tagEnd = nextGt[close + 1]!
    const contentEnd = tag.closer === undefined ? tagEnd + 1 : indexOfTag(text, tag.closer, tagEnd + 1)
    out += text.slice(kept, open) + replace(text.slice(valueStart, close), text.slice(tagEnd + 1, contentEnd))
    kept = tag.closer === undefined ? contentEnd : contentEnd + tag.closer.length
    open = indexOfTag(text, tag.open, kept)
  }
  return kept === 0 ? text : out + text.slice(kept)
}

/** `<\/?p[^>]*>` (gi) → a blank line. */
function replaceParagraphTags(text: string): string {
  let out = ''
  let kept = 0
  for (let open = text.indexOf('<'); open >= 0; ) {
    const name = text.charCodeAt(open + 1) === 0x2f ? open + 2 : open + 1
    const code = text.charCodeAt(name)
    if (code !== 0x70 && code !== 0x50) {
      open = text.indexOf('<', open + 1)
      continue
    }
    const close = text.indexOf('>', name + 1)
    if (close < 0) break // no later `<p` can close either
    out += `${text.slice(kept, open)}\n\n`
    kept = close + 1
    open = text.indexOf('<', kept)
  }
  return kept === 0 ? text : out + text.slice(kept)
}

/** Spaces and tabs at the end of every line but the last (the last has no newline after it). */
function trimLineEnds(text: string): string {
  const lines = text.split('\n')
  for (let i = 0; i < lines.length - 1; i++) {
    const line = lines[i]!
    let end = line.length
    while (end > 0 && (line[end - 1] === ' ' || line[end - 1] === '\t')) end--
    lines[i] = line.slice(0, end)
  }
  return lines.join('\n')
}

/**
 * The small HTML subset of HN comments and V2EX replies (`<p>`, `<a>`, `<i>`, `<pre><code>`, `<br>`, `<img>`)
 * as markdown-ish text, so links stay `[text](url)` for the reference extractor. Linear in the length of `html`.
 */
export function htmlToText(html: string): string {
  let out = html.replace(/\r\n?/g, '\n')
  out = replacePreBlocks(out)
  out = replaceQuotedAttributeTags(out, { open: '<a', attribute: 'href', closer: '</a>' }, (href, text) => {
    const label = stripTags(text).trim()
    const url = decodeEntities(href)
    return label === '' || decodeEntities(label) === url ? url : `[${label}](${url})`
  })
  out = replaceQuotedAttributeTags(out, { open: '<img', attribute: 'src' }, (src) => ` ${decodeEntities(src)} `)
  // Fixed-length tags (`\s*` runs of different matches never overlap): linear as patterns.
  out = out.replace(/<br\s*\/?>/gi, '\n')
  out = replaceParagraphTags(out)
  out = out
    .replace(/<\/?(?:i|em)>/gi, '*')
    .replace(/<\/?(?:b|strong)>/gi, '**')
    .replace(/<\/?code>/gi, '`')
  out = stripTags(out)
  return trimLineEnds(decodeEntities(out))
    .replace(/\n{3,}/g, '\n\n')
    .trim()
}
