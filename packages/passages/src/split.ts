import { type Block, scanBlocks } from './_blocks.js'
import { countMarkdownWords, cutAfterWords, headingText, plainText, sentenceEnds } from './_text.js'

/** One passage of a page: `markdown.slice(start, end) === text`. */
export interface SplitPassage {
  /** Heading path above the passage (`Install › Linux`); a table's header row is appended for rows below it. */
  heading: string
  text: string
  start: number
  end: number
  /** Words as a reader counts them, link targets left out (a Chinese or Japanese character is half a word). */
  words: number
}

/** Sizes and caps of `splitMarkdown`. */
export interface SplitOptions {
  /** A passage shorter than this is merged with a neighbour under the same heading (default 40 words). */
  minWords?: number
  /** A block longer than this is cut at items, rows, lines, then sentences (default 200 words). */
  maxWords?: number
  /** Only the markdown's first `maxChars` characters are read (default 200,000). */
  maxChars?: number
  /** At most this many passages per page, the first ones (default 2,000). */
  maxPassages?: number
}

export const DEFAULT_SPLIT_OPTIONS: Readonly<Required<SplitOptions>> = Object.freeze({
  minWords: 40,
  maxWords: 200,
  maxChars: 200_000,
  maxPassages: 2_000,
})

// A heading path is context, not content: each level and the whole path are kept short.
const MAX_HEADING_LEVEL_CHARS = 120
const MAX_HEADING_LEVELS = 4
// A passage is also cut at this many characters per allowed word: 200 words of prose with every
// word a link are about 4,000 characters; a minified line or a base64 blob is cut there.
const CHARS_PER_WORD = 20

interface Piece {
  start: number
  end: number
  words: number
  heading: string
  /** Pieces of one section (between two headings) share it; merging never crosses a heading. */
  section: number
}

/**
 * Splits a page's markdown into passages that follow its structure — headings (kept as a path),
 * paragraphs, list items, table rows, block quotes, fenced code — of about `minWords`–`maxWords` words.
 * Linear in the markdown's length; offsets index the markdown as given.
 */
export function splitMarkdown(markdown: string, options: SplitOptions = {}): SplitPassage[] {
  const { minWords, maxWords, maxChars, maxPassages } = { ...DEFAULT_SPLIT_OPTIONS, ...options }
  const source = markdown.length > maxChars ? markdown.slice(0, maxChars) : markdown
  const stack: { level: number; text: string }[] = []
  const pieces: Piece[] = []
  let section = 0
  scanBlocks(
    source,
    (heading) => {
      section++
      while (stack.length > 0 && stack.at(-1)!.level >= heading.level) stack.pop()
      const text = headingText(source.slice(heading.start, heading.end)).slice(0, MAX_HEADING_LEVEL_CHARS)
      if (text !== '') stack.push({ level: heading.level, text })
    },
    (block) => {
      const headings = stack.slice(-MAX_HEADING_LEVELS).map((h) => h.text)
      for (const piece of cutBlock(source, { ...block, headings }, maxWords)) pieces.push({ ...piece, section })
    },
  )
  const passages: SplitPassage[] = []
  for (const piece of mergeShort(pieces, minWords, maxWords)) {
    if (piece.words < 1) continue
    passages.push({
      heading: piece.heading,
      text: source.slice(piece.start, piece.end),
      start: piece.start,
      end: piece.end,
      words: piece.words,
    })
    if (passages.length >= maxPassages) break
  }
  return passages
}

type Span = [number, number]

function wordsIn(source: string, [start, end]: Span): number {
  return countMarkdownWords(source, start, end)
}

/** A block as pieces of at most `maxWords` words, cut at its units; a unit too long is cut at sentences, then spaces. */
function cutBlock(source: string, block: Block, maxWords: number): Omit<Piece, 'section'>[] {
  const heading = block.headings.join(' › ')
  const units =
    block.kind === 'paragraph' || block.kind === 'quote' ? sentenceSpans(source, block.units[0]!) : block.units
  const spans = packSpans(source, units, maxWords, block.kind !== 'paragraph' && block.kind !== 'quote')
  const header = block.kind === 'table' ? tableHeader(source, block.units) : null
  return spans.map(({ span, words }) => ({
    start: span[0],
    end: span[1],
    words,
    heading: header && span[0] > block.start ? [heading, header].filter(Boolean).join(' › ') : heading,
  }))
}

/** The header row's cells as plain text (`Application | Original Size`), when the table has a delimiter row. */
function tableHeader(source: string, rows: Span[]): string | null {
  if (rows.length < 2 || !isDelimiterRow(source.slice(rows[1]![0], rows[1]![1]))) return null
  const cells = plainText(source.slice(rows[0]![0], rows[0]![1]))
    .split(/\s{2,}|\t/)
    .map((cell) => cell.trim())
    .filter(Boolean)
  return cells.join(' | ').slice(0, MAX_HEADING_LEVEL_CHARS) || null
}

/** `| --- | :-: |`: only pipes, dashes, colons and spaces, with a dash (a loop: a pattern here could backtrack). */
function isDelimiterRow(row: string): boolean {
  let dash = false
  for (const ch of row) {
    if (ch === '-') dash = true
    else if (ch !== '|' && ch !== ':' && ch !== ' ' && ch !== '\t') return false
  }
  return dash
}

/** Greedy packing of consecutive units into spans of at most `maxWords` words. */
function packSpans(
  source: string,
  units: Span[],
  maxWords: number,
  unitsMaySplitIntoSentences: boolean,
): { span: Span; words: number }[] {
  const out: { span: Span; words: number }[] = []
  let current: { span: Span; words: number } | null = null
  for (const unit of units) {
    const words = wordsIn(source, unit)
    const maxChars = maxWords * CHARS_PER_WORD
    if (words > maxWords || unit[1] - unit[0] > maxChars) {
      if (current) out.push(current)
      current = null
      const inner = unitsMaySplitIntoSentences ? sentenceSpans(source, unit) : null
      if (inner && inner.length > 1) out.push(...packSpans(source, inner, maxWords, false))
      else out.push(...cutAtSpaces(source, unit, maxWords))
      continue
    }
    if (current && current.words + words <= maxWords && unit[1] - current.span[0] <= maxChars) {
      current.span[1] = unit[1]
      current.words += words
    } else {
      if (current) out.push(current)
      current = { span: [unit[0], unit[1]], words }
    }
  }
  if (current) out.push(current)
  return out
}

/** Sentence spans inside a span, each trimmed of the white space before it. */
function sentenceSpans(source: string, [start, end]: Span): Span[] {
  const spans: Span[] = []
  let from = start
  for (const relativeEnd of sentenceEnds(source.slice(start, end))) {
    while (from < start + relativeEnd && /\s/.test(source[from]!)) from++
    if (from < start + relativeEnd) spans.push([from, start + relativeEnd])
    from = start + relativeEnd
  }
  return spans
}

/** Last resort for a sentence, row or line over `maxWords` words: cut after every `maxWords` words. */
function cutAtSpaces(source: string, [start, end]: Span, maxWords: number): { span: Span; words: number }[] {
  const out: { span: Span; words: number }[] = []
  for (let pieceStart = start; pieceStart < end; ) {
    const cut = cutAfterWords(source, pieceStart, end, maxWords, maxWords * CHARS_PER_WORD)
    const trimmed = trimmedSpan(source, pieceStart, cut)
    if (trimmed) out.push({ span: trimmed, words: wordsIn(source, trimmed) })
    pieceStart = cut
  }
  return out
}

function trimmedSpan(source: string, start: number, end: number): Span | null {
  let s = start
  let e = end
  while (s < e && /\s/.test(source[s]!)) s++
  while (e > s && /\s/.test(source[e - 1]!)) e--
  return s < e ? [s, e] : null
}

/** Merges a piece shorter than `minWords` with its neighbour in the same section when both fit in `maxWords`. */
function mergeShort(pieces: readonly Piece[], minWords: number, maxWords: number): Piece[] {
  const merged: Piece[] = []
  for (const piece of pieces) {
    const last = merged.at(-1)
    if (
      last &&
      last.section === piece.section &&
      last.heading === piece.heading &&
      (last.words < minWords || piece.words < minWords) &&
      last.words + piece.words <= maxWords &&
      piece.end - last.start <= maxWords * CHARS_PER_WORD
    ) {
      last.end = piece.end
      last.words += piece.words
    } else merged.push({ ...piece })
  }
  return merged
}
