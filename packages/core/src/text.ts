import { decodeEntities } from './text/entities.js'
import { hasCollapsibleSpace } from './text/whitespace.js'

/** Plain text from a vendor string: tags removed, entities decoded, whitespace collapsed; `''` for non-strings. */
export function plainText(value: unknown): string {
  if (typeof value !== 'string' || value.length === 0) return ''
  // Vendors promise plain text but snippets still carry <strong>/<em> and entities now and then. Most strings
  // have neither, and no whitespace to collapse: each step runs only when it can change something, because every
  // title and snippet of every response goes through here (a dozen responses per search).
  let text = value
  if (text.includes('<')) text = text.replace(TAG, tagSeparator)
  if (text.includes('&')) text = decodeEntities(text)
  return hasCollapsibleSpace(text) ? text.replace(SPACES, ' ').trim() : text.trim()
}

const TAG = /<\/?[a-z][^<>]{0,500}>/gi
// Inline formatting sits inside words and sentences (`<strong>actions</strong>.`): dropping it without a space
// keeps `actions.` instead of `actions .`; any other tag (`<br>`, `<p>`, `<li>`) separates words.
const INLINE_TAG = /^<\/?(?:a|abbr|b|code|em|i|mark|s|small|span|strong|sub|sup|u)\b/i
const tagSeparator = (tag: string): string => (INLINE_TAG.test(tag) ? '' : ' ')
const SPACES = /\s+/g

/** The value as an absolute http(s) URL with a host, or null when it is not one. */
export function httpUrl(value: unknown): string | null {
  return parseHttpUrl(value)?.href ?? null
}

/** `httpUrl` with the host it parsed, for callers that need both (one URL parse instead of two). Not re-exported. */
export function parseHttpUrl(value: unknown): URL | null {
  if (typeof value !== 'string') return null
  let url: URL
  try {
    url = new URL(value.trim())
  } catch {
    return null
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) return null
  return url
}

/**
 * ISO 8601 from a vendor date: ISO with or without milliseconds, an ISO date-time without an offset
 * (read as UTC, as Brave's `page_age`), or an HTTP-date (Tavily). Null when unusable.
 */
export function isoDate(value: unknown): string | null {
  if (typeof value !== 'string') return null
  const trimmed = value.trim()
  if (trimmed === '') return null
  const fast = plainIsoDate(trimmed)
  if (fast !== undefined) return fast
  const hasZone = /(?:z|[+-]\d{2}:?\d{2})$/i.test(trimmed)
  const candidate = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(trimmed) && !hasZone ? `${trimmed}Z` : trimmed
  const ms = Date.parse(candidate)
  if (Number.isNaN(ms)) return null
  const date = new Date(ms)
  // Years outside 4 digits are parse artefacts, not publication dates.
  const year = date.getUTCFullYear()
  return year < 1000 || year > 9999 ? null : date.toISOString()
}

const digitsAt = (text: string, from: number, to: number): number => {
  let n = 0
  for (let i = from; i < to; i++) {
    const d = text.charCodeAt(i) - 48
    if (d < 0 || d > 9) return -1
    n = n * 10 + d
  }
  return n
}

const daysIn = (year: number, month: number): number =>
  month === 2
    ? year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
      ? 29
      : 28
    : month === 4 || month === 6 || month === 9 || month === 11
      ? 30
      : 31

/**
 * The shapes Brave (`2025-10-02T14:10:05`) and Exa (`2025-06-04T00:00:00.000Z`) send, read without a Date: when
 * every field is in range, `Date.parse` + `toISOString` would give back the same fields, so they are copied.
 * Undefined for anything else (other shapes, rolled-over days like Feb 30, years before 1000): the general path.
 */
function plainIsoDate(text: string): string | undefined {
  const n = text.length
  if (n !== 19 && n !== 20 && n !== 23 && n !== 24) return undefined
  if (text[4] !== '-' || text[7] !== '-' || text[10] !== 'T' || text[13] !== ':' || text[16] !== ':') return undefined
  let millis = '000'
  if (n >= 23) {
    if (text[19] !== '.' || digitsAt(text, 20, 23) < 0) return undefined
    millis = text.slice(20, 23)
  }
  if ((n === 20 || n === 24) && text[n - 1] !== 'Z') return undefined
  const year = digitsAt(text, 0, 4)
  const month = digitsAt(text, 5, 7)
  const day = digitsAt(text, 8, 10)
  const hour = digitsAt(text, 11, 13)
  const minute = digitsAt(text, 14, 16)
  const second = digitsAt(text, 17, 19)
  if (year < 1000 || month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return undefined
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return undefined
  return `${text.slice(0, 19)}.${millis}Z`
}

/** Whether a hostname is the domain or one of its subdomains (`www.` ignored on both). */
export function hostMatches(hostname: string, domain: string): boolean {
  const host = hostname.toLowerCase().replace(/^www\./, '')
  const d = domain.toLowerCase().replace(/^www\./, '')
  return host === d || host.endsWith(`.${d}`)
}

/** Whether a host passes a request's include/exclude domain filters (vendors enforce them only loosely). */
export function passesDomainFilters(
  hostname: string,
  filters: { includeDomains?: readonly string[]; excludeDomains?: readonly string[] },
): boolean {
  if (filters.includeDomains?.length && !filters.includeDomains.some((d) => hostMatches(hostname, d))) return false
  return !filters.excludeDomains?.some((d) => hostMatches(hostname, d))
}
