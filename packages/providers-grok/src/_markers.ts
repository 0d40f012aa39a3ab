import { isWhitespace } from '@search-layer/core/text'

// Citation markers are `[[n]](url)`. sentenceAround needs the text before a citation without the markers and
// spaces it ends with; the end-anchored regexes that did this scanned the whole prefix for every citation.

const isDigit = (code: number) => code >= 0x30 && code <= 0x39

// The leftmost start of a marker `[[\d+]]([^)\s]*)` that ends at `end`, or -1. Leftmost, because the regex this
// replaces takes its leftmost match: a later start inside a longer marker could never continue the chain anyway.
function markerEndingAt(text: string, end: number, floor: number): number {
  if (end <= floor || text.charCodeAt(end - 1) !== 0x29) return -1
  let start = -1
  for (let k = end - 2; k >= floor; k--) {
    const code = text.charCodeAt(k)
    if (code === 0x29 || isWhitespace(code)) break
    if (code !== 0x28 || k < floor + 2 || text.charCodeAt(k - 1) !== 0x5d || text.charCodeAt(k - 2) !== 0x5d) continue
    let d = k - 2
    while (d > floor && isDigit(text.charCodeAt(d - 1))) d--
    if (d === k - 2 || d < floor + 2 || text.charCodeAt(d - 1) !== 0x5b || text.charCodeAt(d - 2) !== 0x5b) continue
    start = d - 2
  }
  return start
}

/**
 * `text.slice(0, end).replace(/(?:\s*\[\[\d+\]\]\([^)\s]*\))+\s*$/, '').replace(/\s+$/, '')`, scanning back
 * from `end` only as far as the markers and spaces go, and not before `floor` (what lies before it is kept).
 */
export function textBeforeMarkers(text: string, end: number, floor = 0): string {
  let cut = end
  for (;;) {
    let j = cut
    while (j > floor && isWhitespace(text.charCodeAt(j - 1))) j--
    const start = markerEndingAt(text, j, floor)
    if (start < 0) {
      cut = j
      break
    }
    cut = start
  }
  return text.slice(0, cut)
}
