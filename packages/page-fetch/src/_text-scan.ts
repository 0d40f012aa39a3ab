// Scans of plain text and markdown bodies (links, headings, bare URLs). Pages are written by anyone, so each
// reads every character a bounded number of times: no lazy match that re-reads runs of blanks, no count redone
// per trimmed character. Each gives what the regex or loop it replaced gave (property tests hold them to it).

const TRAILING_PUNCTUATION = new Set(['.', ',', ';', ':', '!', '?', "'", '"', ')', ']', '}', '>'])

/**
 * A bare URL without the sentence punctuation after it; a closing bracket stays only when the URL opened one
 * (Wikipedia-style `Foo_(bar)`). Brackets are counted once, then updated per dropped character: recounting per
 * character made a URL followed by a run of `)` quadratic.
 */
export function trimTrailingPunctuation(url: string): string {
  let openParens = 0
  let closeParens = 0
  let openBrackets = 0
  let closeBrackets = 0
  for (const c of url) {
    if (c === '(') openParens++
    else if (c === ')') closeParens++
    else if (c === '[') openBrackets++
    else if (c === ']') closeBrackets++
  }
  let end = url.length
  while (end > 0 && TRAILING_PUNCTUATION.has(url[end - 1]!)) {
    const last = url[end - 1]
    if (last === ')') {
      if (openParens >= closeParens) break
      closeParens--
    } else if (last === ']') {
      if (openBrackets >= closeBrackets) break
      closeBrackets--
    }
    end--
  }
  return url.slice(0, end)
}

/**
 * Markdown links `[label](target "title")`, as `/\[([^\]]*)\]\((\S+?)(?:\s+"[^"]*")?\)/g` finds them. The label
 * runs to the first `]`, shared by every `[` before it; the target is the shortest run of non-blanks that a `)`
 * or a title ends. Where it ends depends only on the first `)` or blank after it starts, so that boundary is
 * found once and reused by every later `](` before it: the pattern, retried from each `](`, re-read the rest of
 * a run without `)` every time (`'![]('.repeat(n)`, 391 KB: 64 s).
 */
export function markdownLinkMatches(text: string): { index: number; length: number; label: string; target: string }[] {
  const out: { index: number; length: number; label: string; target: string }[] = []
  const tails = new LinkTails(text)
  let stop = -1
  for (let start = text.indexOf('['); start !== -1; start = text.indexOf('[', start + 1)) {
    if (stop <= start) {
      stop = text.indexOf(']', start + 1)
      if (stop === -1) break
    }
    const end = tails.endAfter(stop)
    if (end === -1) continue
    const target = tails.lastTarget
    out.push({ index: start, length: end - start, label: text.slice(start + 1, stop), target })
    start = end - 1
  }
  return out
}

/** The `(target "title")` after a label's `]`, found with a boundary that only moves forward. */
class LinkTails {
  /** The first `)` or blank at or after `boundaryFrom`: where every target starting before it ends. */
  private boundary = -1
  private boundaryFrom = -1
  private titleEndAt = -1
  private titleEnd = -1
  lastTarget = ''

  constructor(private readonly text: string) {}

  /** Index just past the link's `)` when a tail follows the `]` at `stop`, else -1. */
  endAfter(stop: number): number {
    const text = this.text
    const targetStart = stop + 2
    if (text.charCodeAt(stop + 1) !== 0x28 || targetStart >= text.length || isBlank(text, targetStart)) return -1
    const at = this.boundaryAfter(targetStart + 1)
    if (at >= text.length) return -1
    const end = text.charCodeAt(at) === 0x29 ? at + 1 : this.titleAfter(at)
    if (end !== -1) this.lastTarget = text.slice(targetStart, at)
    return end
  }

  private boundaryAfter(from: number): number {
    // Later calls start later: a fresh scan starts past the last boundary, so no character is read twice.
    if (from >= this.boundaryFrom && from <= this.boundary) return this.boundary
    let i = from
    while (i < this.text.length && this.text.charCodeAt(i) !== 0x29 && !isBlank(this.text, i)) i++
    this.boundaryFrom = from
    this.boundary = i
    return i
  }

  /** After blanks at `at`: `\s+"[^"]*"\)`, its end or -1; the same blanks give the same answer, so it is kept. */
  private titleAfter(at: number): number {
    if (at === this.titleEndAt) return this.titleEnd
    const text = this.text
    let i = at
    while (i < text.length && isBlank(text, i)) i++
    let end = -1
    if (text.charCodeAt(i) === 0x22) {
      const close = text.indexOf('"', i + 1)
      if (close !== -1 && text.charCodeAt(close + 1) === 0x29) end = close + 2
    }
    this.titleEndAt = at
    this.titleEnd = end
    return end
  }
}

const BLANK_RE = /\s/

/** Whether the character at `i` is one of a pattern's `\s`. */
function isBlank(text: string, i: number): boolean {
  const code = text.charCodeAt(i)
  if (code === 0x20 || (code >= 0x09 && code <= 0x0d)) return true
  return code > 0x7f && BLANK_RE.test(text[i]!)
}

/**
 * The first ATX heading's text, as `/^#{1,6}\s+(.+?)\s*#*$/m` captures it: the closing hashes and the blanks
 * before them are cut from the end of the line instead of by a lazy match that re-reads runs of blanks.
 */
export function firstHeading(text: string): string | undefined {
  const line = /^#{1,6}\s+(.+)$/m.exec(text)?.[1]
  if (line === undefined) return undefined
  let end = line.length
  while (end > 0 && line[end - 1] === '#') end--
  while (end > 0 && /\s/.test(line[end - 1]!)) end--
  return end > 0 ? line.slice(0, end) : line[0]
}
