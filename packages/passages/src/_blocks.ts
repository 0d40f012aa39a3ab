// The block structure of a markdown page, found line by line in one pass: headings, paragraphs,
// list items, table rows, block quotes and fenced code. Each block keeps character offsets into the
// markdown and the offsets of its natural cut points (items, rows, lines), so a long block can be cut
// where a reader would cut it. No regex runs over more than one line's prefix.

import { isSpace } from './_text.js'

type BlockKind = 'paragraph' | 'list' | 'table' | 'code' | 'quote'

/** A content block: offsets into the markdown, the heading path above it, and its units. */
export interface Block {
  kind: BlockKind
  start: number
  end: number
  /** Headings above the block, outermost first. */
  headings: string[]
  /** [start, end) of each list item, table row or code line; one unit for paragraphs and quotes. */
  units: [number, number][]
}

/** A heading line, as the scanner reports it before the path is built. */
interface HeadingLine {
  level: number
  start: number
  end: number
}

const BULLET = /^(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/
const HEADING = /^(#{1,6})(?:[ \t]|$)/
const THEMATIC_BREAK = /^(?:-[ \t]*){3,}$|^(?:\*[ \t]*){3,}$|^(?:_[ \t]*){3,}$/

/** First non-space offset in [from, to), or `to`. */
function skipSpace(text: string, from: number, to: number): number {
  let i = from
  while (i < to && isSpace(text.charCodeAt(i))) i++
  return i
}

/** Offset just past the last non-space character in [from, to). */
function trimEnd(text: string, from: number, to: number): number {
  let i = to
  while (i > from && isSpace(text.charCodeAt(i - 1))) i--
  return i
}

/** Walks the markdown's lines and reports blocks and headings in document order. */
export function scanBlocks(
  markdown: string,
  onHeading: (heading: HeadingLine) => void,
  onBlock: (block: Omit<Block, 'headings'>) => void,
): void {
  let current: Omit<Block, 'headings'> | null = null
  let fence: string | null = null
  const flush = () => {
    if (current) onBlock(current)
    current = null
  }
  const open = (kind: BlockKind, start: number, end: number) => {
    flush()
    current = { kind, start, end, units: [[start, end]] }
  }
  const extend = (end: number, newUnit: boolean, unitStart: number) => {
    const block = current!
    block.end = end
    if (newUnit) block.units.push([unitStart, end])
    else block.units[block.units.length - 1]![1] = end
  }

  let lineStart = 0
  while (lineStart <= markdown.length) {
    let lineEnd = markdown.indexOf('\n', lineStart)
    if (lineEnd === -1) lineEnd = markdown.length
    const contentStart = skipSpace(markdown, lineStart, lineEnd)
    const contentEnd = trimEnd(markdown, contentStart, lineEnd)
    const indent = contentStart - lineStart
    // Only a line's first few characters decide its kind; the prefix keeps each test short.
    const head = markdown.slice(contentStart, Math.min(contentEnd, contentStart + 16))
    const blank = contentStart === contentEnd
    const block = current as Omit<Block, 'headings'> | null

    if (fence !== null) {
      if (!blank) extend(contentEnd, true, contentStart)
      if (head.startsWith(fence) && markdown.slice(contentStart, contentEnd).split(fence[0]!).join('').trim() === '') {
        fence = null
        flush()
      }
    } else if (blank) {
      flush()
    } else if (indent <= 3 && (head.startsWith('```') || head.startsWith('~~~'))) {
      const marker = head[0]!
      let length = 0
      while (head[length] === marker) length++
      fence = marker.repeat(length)
      open('code', contentStart, contentEnd)
    } else if (indent <= 3 && HEADING.test(head)) {
      flush()
      onHeading({ level: HEADING.exec(head)![1]!.length, start: contentStart, end: contentEnd })
    } else if (
      indent <= 3 &&
      THEMATIC_BREAK.test(markdown.slice(contentStart, Math.min(contentEnd, contentStart + 200)))
    ) {
      flush()
    } else if (head.startsWith('|')) {
      if (block?.kind === 'table') extend(contentEnd, true, contentStart)
      else open('table', contentStart, contentEnd)
    } else if (BULLET.test(head)) {
      if (block?.kind === 'list') extend(contentEnd, true, contentStart)
      else open('list', contentStart, contentEnd)
    } else if (head.startsWith('>')) {
      if (block?.kind === 'quote') extend(contentEnd, false, contentStart)
      else open('quote', contentStart, contentEnd)
    } else if (block && block.kind !== 'table') {
      // A plain line right after a paragraph, list item or quote continues it (markdown's lazy continuation).
      extend(contentEnd, false, contentStart)
    } else {
      open('paragraph', contentStart, contentEnd)
    }
    lineStart = lineEnd + 1
  }
  flush()
}
