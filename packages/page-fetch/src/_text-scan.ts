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

// The label of `[label](target "title")` runs to the first `]`; the rest is matched from there with a sticky
// pattern, at most once per `]`, so runs of `[` or of unclosed links stay linear.
const MD_LINK_TAIL_RE = /\((\S+?)(?:\s+"[^"]*")?\)/y

/** Markdown links `[label](target "title")`, as `/\[([^\]]*)\]\((\S+?)(?:\s+"[^"]*")?\)/g` finds them. */
export function markdownLinkMatches(text: string): { index: number; length: number; label: string; target: string }[] {
  const out: { index: number; length: number; label: string; target: string }[] = []
  let stop = -1
  let failedTail = -1
  for (let start = text.indexOf('['); start !== -1; start = text.indexOf('[', start + 1)) {
    if (stop <= start) {
      stop = text.indexOf(']', start + 1)
      if (stop === -1) break
    }
    if (stop === failedTail) continue
    MD_LINK_TAIL_RE.lastIndex = stop + 1
    const tail = MD_LINK_TAIL_RE.exec(text)
    if (!tail) {
      failedTail = stop
      continue
    }
    const length = stop + 1 + tail[0].length - start
    out.push({ index: start, length, label: text.slice(start + 1, stop), target: tail[1]! })
    start += length - 1
  }
  return out
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
