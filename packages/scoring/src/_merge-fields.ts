import { canonicalIsoTime, fastDateTime } from './_date-fast.js'
import { isoString, parseDateTime } from './date.js'
import { byRankThenProvider, cmp, type Occurrences } from './_merge-occurrences.js'

// Title, snippet and date of a group: each picks the best of its members' values, by the rules written beside it.

const FUTURE_TOLERANCE_MS = 86_400_000
const MIN_RELIABLE = Date.UTC(1990, 0, 1)
const BARE_URL = /^https?:\/\/\S+$/i
const WWW = /^www\./

/**
 * What `replace(/\s+/g, ' ')` changes: runs of two or more whitespace, and lone whitespace but the plain space.
 * The same result, with a match per messy run instead of one per space between words.
 */
const SPACES = /\s{2,}|[^\S ]/g

export function clean(text: unknown): string {
  if (typeof text !== 'string') return ''
  // Most provider text is already clean; skip the rewrite (and its garbage) when it is.
  return MESSY.test(text) ? text.replace(SPACES, ' ').trim() : text.trim()
}

/**
 * Where `\s+` has something to collapse, as merge has always judged it: any whitespace but the plain space,
 * U+1680, U+202F, U+205F and U+FEFF, or two of those in a row. (A lone one of those four inside the text stays.)
 * A regex scan: a char-code loop in JavaScript costs several times more.
 */
const MESSY = /[\t-\r\u00a0\u2000-\u200a\u2028\u2029\u3000]|[ \u1680\u202f\u205f\ufeff]{2}/

function isTruncated(text: string): boolean {
  const last = text.charCodeAt(text.length - 1)
  return (
    last === 0x2026 ||
    (last === 46 && text.charCodeAt(text.length - 2) === 46 && text.charCodeAt(text.length - 3) === 46)
  )
}

/** `^https?:\/\/`, in any case, by char code: a title that is a URL is no title. */
function isHttpUrl(text: string): boolean {
  if ((text.charCodeAt(0) | 32) !== 104 || (text.charCodeAt(1) | 32) !== 116 || (text.charCodeAt(2) | 32) !== 116) {
    return false
  }
  if ((text.charCodeAt(3) | 32) !== 112) return false
  const at = (text.charCodeAt(4) | 32) === 115 ? 5 : 4
  return text.charCodeAt(at) === 58 && text.charCodeAt(at + 1) === 47 && text.charCodeAt(at + 2) === 47
}

/**
 * Raw field values already looked at in the current group. A value seen at an earlier (better ranked) member
 * can never win against it, whichever rule picks the winner, so a repeat is skipped without cleaning it again.
 */
const seen: unknown[] = []

function seenBefore(value: unknown, index: number): boolean {
  seen[index] = value
  for (let j = 0; j < index; j++) if (seen[j] === value) return true
  return false
}

export function pickTitle(occ: Occurrences, start: number, count: number, url: string): string {
  const byGroup = occ.byGroup
  let winner = -1
  let winText = ''
  let winTruncated = false
  for (let i = 0; i < count; i++) {
    const o = byGroup[start + i]!
    const raw = occ.result[o]!.title
    if (count > 1 && seenBefore(raw, i)) continue
    const text = clean(raw)
    if (text === '' || isHttpUrl(text) || (text.length === 8 && text.toLowerCase() === 'untitled')) continue
    const truncated = isTruncated(text)
    if (
      winner === -1 ||
      (Number(truncated) - Number(winTruncated) ||
        byRankThenProvider(occ, o, winner) ||
        winText.length - text.length ||
        cmp(text, winText)) < 0
    ) {
      winner = o
      winText = text
      winTruncated = truncated
    }
  }
  if (winner !== -1) return winText
  // No usable title from any provider: show where the page is rather than nothing.
  try {
    const u = new URL(url)
    return `${u.hostname.replace(WWW, '')}${u.pathname === '/' ? '' : u.pathname}`
  } catch {
    return url
  }
}

/** `\s` of a JavaScript regex, by char code. */
function isSpace(c: number): boolean {
  if (c < 128) return c === 32 || (c >= 9 && c <= 13)
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  )
}

/** `[:：|–—-]`: what separates a title from the rest of a snippet. */
function isTitleSeparator(c: number): boolean {
  return c === 58 || c === 45 || c === 124 || c === 0x2013 || c === 0x2014 || c === 0xff1a
}

// Answer-derived snippets often read "Title: what the page says"; the title is shown anyway, and repeating it
// must not make a snippet win "longest". The separator after the title (`^\s*[:：|–—-]\s*`) is read by char
// code: one slice, no regex, no intermediate string.
function withoutTitlePrefix(text: string, title: string): string {
  if (title.length === 0 || text.length <= title.length || !text.startsWith(title)) return text
  let at = title.length
  while (at < text.length && isSpace(text.charCodeAt(at))) at++
  if (!isTitleSeparator(text.charCodeAt(at))) return text
  at++
  while (at < text.length && isSpace(text.charCodeAt(at))) at++
  return text.slice(at)
}

export function pickSnippet(occ: Occurrences, start: number, count: number, title: string): string {
  const byGroup = occ.byGroup
  let winner = -1
  let winText = ''
  let lowerTitle: string | undefined
  for (let i = 0; i < count; i++) {
    const o = byGroup[start + i]!
    const raw = occ.result[o]!.snippet
    if (count > 1 && seenBefore(raw, i)) continue
    const text = withoutTitlePrefix(clean(raw), title)
    if (text === '') continue
    if (text.length === title.length) {
      // Lower-cased only when a snippet could repeat the title: most never have its exact length.
      lowerTitle ??= title.toLowerCase()
      if (text.toLowerCase() === lowerTitle) continue
    }
    if (text.startsWith('http') && BARE_URL.test(text)) continue
    if (
      winner === -1 ||
      (winText.length - text.length || byRankThenProvider(occ, o, winner) || cmp(text, winText)) < 0
    ) {
      winner = o
      winText = text
    }
  }
  return winText
}

/** The reliable time of a raw `publishedAt`, or NaN. */
function reliableTime(time: number | null, now: number): number {
  // Later dates are usually "updated" or crawl dates; future and pre-web dates are junk.
  return time === null || time > now + FUTURE_TOLERANCE_MS || time < MIN_RELIABLE ? Number.NaN : time
}

/**
 * Dates of the shapes `fastDateTime` does not read (junk, mostly) take the general parser, once per distinct
 * string and merge.
 */
function dateTime(value: unknown, now: Date, general: Map<string, number | null>): number | null {
  if (typeof value !== 'string') return parseDateTime(value, now)
  const fast = fastDateTime(value, now)
  if (fast !== undefined) return fast
  let time = general.get(value)
  if (time === undefined) {
    time = parseDateTime(value, now)
    general.set(value, time)
  }
  return time
}

export function pickDate(
  occ: Occurrences,
  start: number,
  count: number,
  now: Date,
  general: Map<string, number | null>,
): string | null {
  const byGroup = occ.byGroup
  const nowTime = now.getTime()
  // Earliest, because later dates are usually "updated" or crawl dates.
  let earliest = Number.NaN
  let from: unknown
  for (let i = 0; i < count; i++) {
    const value = occ.result[byGroup[start + i]!]!.publishedAt
    if (count > 1 && seenBefore(value, i)) continue
    const time = reliableTime(dateTime(value, now, general), nowTime)
    if (time < earliest || (Number.isNaN(earliest) && !Number.isNaN(time))) {
      earliest = time
      from = value
    }
  }
  if (Number.isNaN(earliest)) return null
  // The ISO form parseDate gives: a canonical ISO input round-trips to itself, so it is its own ISO form.
  if (typeof from === 'string' && from.length === 24 && canonicalIsoTime(from) === earliest) return from
  return isoString(earliest)
}

/** Forget the values `seenBefore` holds, so that a finished merge keeps no provider text alive. */
export function forgetSeen(): void {
  seen.length = 0
}
