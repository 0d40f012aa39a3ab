import { isWhitespace } from '@search-layer/core/text'

// The answer text is the model's, and the model reads the web: anything a page says can reach it. The regexes
// these replace each tried every opener and ran from it to the end of the text when its closer never came
// (`[[1]](` or `[` repeated, spaces without a newline, `<think>` without `</think>`): quadratic. Here each search
// for a closer resumes where the last one stopped, so a text is read a bounded number of times.

/** The first index at or after `from` where `test` holds (or the text's length), remembering the last answer. */
class NextFinder {
  private from = -1
  private at = -1

  constructor(
    private readonly text: string,
    private readonly test: (code: number) => boolean,
  ) {}

  find(from: number): number {
    // Nothing between the last start and its answer passes the test, so any start in that span has that answer.
    if (from >= this.from && from <= this.at) return this.at
    let i = from
    while (i < this.text.length && !this.test(this.text.charCodeAt(i))) i++
    this.from = from
    this.at = i
    return i
  }
}

const code = (char: string) => char.charCodeAt(0)
const [OPEN_BRACKET, CLOSE_BRACKET, OPEN_PAREN, CLOSE_PAREN, BANG] = ['[', ']', '(', ')', '!'].map(code) as [
  number,
  number,
  number,
  number,
  number,
]
const isDigit = (c: number) => c >= 0x30 && c <= 0x39

/** `text.replace(/\s?\[\[\d+\]\]\([^)\s]*\)/g, '')`. */
export function removeCitationMarkers(text: string): string {
  const urlEnd = new NextFinder(text, (c) => c === CLOSE_PAREN || isWhitespace(c))
  // The end of the marker starting at `i`, or -1.
  const markerAt = (i: number): number => {
    if (text.charCodeAt(i) !== OPEN_BRACKET || text.charCodeAt(i + 1) !== OPEN_BRACKET) return -1
    let j = i + 2
    while (isDigit(text.charCodeAt(j))) j++
    if (j === i + 2 || !text.startsWith(']](', j)) return -1
    const close = urlEnd.find(j + 3)
    return text.charCodeAt(close) === CLOSE_PAREN ? close + 1 : -1
  }
  return replaceEach(text, (i) => {
    const end = isWhitespace(text.charCodeAt(i)) ? markerAt(i + 1) : -1
    return end >= 0 ? { end, by: '' } : orNull(markerAt(i), '')
  })
}

/** `text.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')`: markdown links and images become their text. */
export function unlinkMarkdown(text: string): string {
  const bracket = new NextFinder(text, (c) => c === CLOSE_BRACKET)
  const paren = new NextFinder(text, (c) => c === CLOSE_PAREN)
  const linkAt = (i: number): { end: number; by: string } | null => {
    if (text.charCodeAt(i) !== OPEN_BRACKET) return null
    const close = bracket.find(i + 1)
    if (close >= text.length || text.charCodeAt(close + 1) !== OPEN_PAREN) return null
    const end = paren.find(close + 2)
    return end < text.length ? { end: end + 1, by: text.slice(i + 1, close) } : null
  }
  return replaceEach(text, (i) => (text.charCodeAt(i) === BANG ? linkAt(i + 1) : null) ?? linkAt(i))
}

/** What `/\[([^\]]{1,300})\]\((https?:\/\/[^)\s]+)\)/g` matches: markdown links to http(s) URLs. */
export function markdownLinks(text: string): { index: number; length: number; title: string; url: string }[] {
  const bracket = new NextFinder(text, (c) => c === CLOSE_BRACKET)
  const urlEnd = new NextFinder(text, (c) => c === CLOSE_PAREN || isWhitespace(c))
  const links: { index: number; length: number; title: string; url: string }[] = []
  for (let i = text.indexOf('['); i >= 0 && i < text.length; i = text.indexOf('[', i + 1)) {
    const close = bracket.find(i + 1)
    if (close - i - 1 < 1 || close - i - 1 > 300 || text.charCodeAt(close + 1) !== OPEN_PAREN) continue
    const end = urlEnd.find(close + 2)
    const url = text.slice(close + 2, end)
    if (text.charCodeAt(end) !== CLOSE_PAREN || !/^https?:\/\/./.test(url)) continue
    links.push({ index: i, length: end + 1 - i, title: text.slice(i + 1, close), url })
    i = end
  }
  return links
}

/** `text.replace(/[ \t]+\n/g, '\n')`: spaces and tabs at the ends of lines removed. */
export function trimLineEnds(text: string): string {
  return text
    .split('\n')
    .map((line, index, lines) => (index < lines.length - 1 ? trimSpacesAndTabs(line) : line))
    .join('\n')
}

function trimSpacesAndTabs(line: string): string {
  let end = line.length
  while (end > 0 && (line[end - 1] === ' ' || line[end - 1] === '\t')) end--
  return end === line.length ? line : line.slice(0, end)
}

/** `/^\s*(?:data|event|id):/m.test(text)`: a line that, past its leading whitespace, is an event-stream field. */
export function hasEventStreamField(text: string): boolean {
  return text.split(/\r|\n|\u2028|\u2029/).some((line) => /^(?:data|event|id):/.test(line.trimStart()))
}

const THINK_OPEN = /<think(?:ing)?>/gi
const THINK_CLOSE = /<\/think(?:ing)?>/gi

/** `text.replace(/<think(?:ing)?>[\s\S]*?<\/think(?:ing)?>/gi, '')`: finished reasoning blocks removed. */
export function removeThinkBlocks(text: string): string {
  let out = ''
  let kept = 0
  for (;;) {
    THINK_OPEN.lastIndex = kept
    const open = THINK_OPEN.exec(text)
    if (!open) break
    THINK_CLOSE.lastIndex = open.index + open[0].length
    // Without a closer after this opener there is none after any later one either.
    if (!THINK_CLOSE.exec(text)) break
    out += text.slice(kept, open.index)
    kept = THINK_CLOSE.lastIndex
  }
  return out + text.slice(kept)
}

const orNull = (end: number, by: string) => (end >= 0 ? { end, by } : null)

/** Left to right, as a global regex replace: where `matchAt(i)` matches, its text is replaced and skipped. */
function replaceEach(text: string, matchAt: (i: number) => { end: number; by: string } | null): string {
  let out = ''
  let kept = 0
  for (let i = 0; i < text.length; ) {
    const match = matchAt(i)
    if (!match) {
      i++
      continue
    }
    out += text.slice(kept, i) + match.by
    kept = i = match.end
  }
  return kept === 0 ? text : out + text.slice(kept)
}
