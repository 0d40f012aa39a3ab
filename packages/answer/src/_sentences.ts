// Sentences of an answer by Intl.Segmenter (Unicode's sentence rules, CJK included), in pieces of at most 2,000
// characters: the segmenter's time grows faster than its input on Node 20, the pieces keep the whole linear.
// Citation markers are masked before segmenting (a quote's own full stop must not end the sentence) and a marker
// that follows a sentence end (`… in 2022. [p1]`) is moved back to the sentence it cites for.
import { hasHan } from '@search-layer/core/text'
import type { Marker } from './_markers.js'

/** A span of the text, `[start, end)`. */
export interface Span {
  start: number
  end: number
}

const PIECE_CHARS = 2_000
const segmenters = new Map<string, Intl.Segmenter>()

function segmenterFor(text: string): Intl.Segmenter {
  const locale = hasHan(text) ? 'zh' : 'en'
  let segmenter = segmenters.get(locale)
  if (!segmenter) {
    segmenter = new Intl.Segmenter(locale, { granularity: 'sentence' })
    segmenters.set(locale, segmenter)
  }
  return segmenter
}

/** The sentences of `text`, trimmed, empty ones left out; every marker lies wholly inside one sentence. */
export function sentenceSpans(text: string, markers: readonly Marker[]): Span[] {
  const masked = maskMarkers(text, markers)
  const breaks = moveBreaksPastMarkers(text, segmentBreaks(masked), markers)
  const spans: Span[] = []
  let start = 0
  for (const end of [...breaks, text.length]) {
    const span = trimSpan(text, start, end)
    if (span) spans.push(span)
    start = end
  }
  return spans
}

/** The text with every marker replaced by as many `X`: a word, so no rule breaks inside or right before it. */
function maskMarkers(text: string, markers: readonly Marker[]): string {
  if (markers.length === 0) return text
  const parts: string[] = []
  let at = 0
  for (const m of markers) {
    parts.push(text.slice(at, m.start), 'X'.repeat(m.end - m.start))
    at = m.end
  }
  parts.push(text.slice(at))
  return parts.join('')
}

/** Offsets where a new sentence starts (not 0), ascending. */
function segmentBreaks(text: string): number[] {
  const segmenter = segmenterFor(text)
  const breaks: number[] = []
  let pos = 0
  while (pos < text.length) {
    const end = pieceEnd(text, pos)
    for (const s of segmenter.segment(text.slice(pos, end))) if (s.index > 0) breaks.push(pos + s.index)
    if (end < text.length) breaks.push(end)
    pos = end
  }
  return breaks
}

const TERMINATORS = new Set(['.', '!', '?', '\u3002', '\uff01', '\uff1f', '\uff1b'])
const isBlank = (ch: string | undefined): boolean => ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n'

/**
 * Where the piece starting at `pos` ends: after its last line break, else after its last sentence end, else
 * after its last space, else at `PIECE_CHARS` (not between the halves of a surrogate pair). Looks back at most
 * one piece.
 */
function pieceEnd(text: string, pos: number): number {
  const limit = pos + PIECE_CHARS
  if (limit >= text.length) return text.length
  let sentenceEnd = -1
  let space = -1
  for (let i = limit - 1; i > pos; i--) {
    const ch = text[i]
    if (ch === '\n') return i + 1
    if (sentenceEnd < 0 && TERMINATORS.has(ch!) && (isBlank(text[i + 1]) || ch! > '\u3000')) sentenceEnd = i + 1
    if (space < 0 && isBlank(ch)) space = i + 1
  }
  if (sentenceEnd > pos) return sentenceEnd
  if (space > pos) return space
  const code = text.charCodeAt(limit - 1)
  return code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit
}

/**
 * Breaks moved out of markers, and past the markers (and spaces) right after them: citations after a sentence's
 * end belong to that sentence. Breaks stay ascending.
 */
function moveBreaksPastMarkers(text: string, breaks: readonly number[], markers: readonly Marker[]): number[] {
  const moved: number[] = []
  let m = 0
  let prev = 0
  for (const given of breaks) {
    let b = Math.max(given, prev)
    for (;;) {
      while (m < markers.length && markers[m]!.end <= b) m++
      const marker = markers[m]
      if (!marker) break
      if (marker.start < b) {
        b = marker.end
        continue
      }
      let j = b
      while (j < marker.start && isBlank(text[j])) j++
      if (j !== marker.start) break
      b = marker.end
    }
    moved.push(b)
    prev = b
  }
  return moved
}

function trimSpan(text: string, start: number, end: number): Span | null {
  let s = start
  let e = end
  while (s < e && /\s/.test(text[s]!)) s++
  while (e > s && /\s/.test(text[e - 1]!)) e--
  return s < e ? { start: s, end: e } : null
}
