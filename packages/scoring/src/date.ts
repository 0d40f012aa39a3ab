import { DAY_MS } from './_math.js'
import { canonicalIsoTime, fastDateTime } from './_date-fast.js'
import { CJK_UNITS, MAX_YEAR, MIN_YEAR, UNIT_ALIASES, UNIT_MS } from './_date-units.js'

export interface ParseDateOptions {
  /** The clock for relative dates ("3 days ago"); defaults to the current time. */
  now?: Date
}

const RELATIVE_EN = /^(\d+|an?|one)\s*([a-z]+?)s?\s+ago$/i
const RELATIVE_ZH = /^(\d+)\s*(秒|分钟|小时|天|周|星期|个月|月|年)前$/
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/
const ISO_NO_ZONE = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)$/
const ISO_ZONED = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)\s*(Z|[+-]\d{2}:?\d{2})$/i
const SLASH_DATE = /^(\d{4})[/.](\d{1,2})[/.](\d{1,2})$/
const ZH_DATE = /^(\d{4})年(\d{1,2})月(\d{1,2})日/
const HAS_ZONE = /(?:\b(?:gmt|utc|z)\b|[+-]\d{2}:?\d{2}\b)/i
const CANONICAL_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

function utcDate(year: number, month: number, day: number): Date | null {
  const date = new Date(Date.UTC(year, month - 1, day))
  // Date.UTC rolls 2024-02-30 over to March; a date that does not round-trip is not a calendar date.
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day ? date : null
}

function relative(text: string, now: Date): Date | null {
  const lower = text.toLowerCase()
  if (lower === 'just now' || lower === 'now' || lower === 'today' || text === '刚刚' || text === '今天') return now
  if (lower === 'yesterday' || text === '昨天') return new Date(now.getTime() - DAY_MS)
  const en = RELATIVE_EN.exec(text)
  if (en !== null) {
    const count = /^\d+$/.test(en[1]!) ? Number(en[1]) : 1
    const word = en[2]!.toLowerCase()
    const unit = UNIT_MS[word] ?? UNIT_MS[UNIT_ALIASES[word] ?? '']
    return unit === undefined ? null : new Date(now.getTime() - count * unit)
  }
  const zh = RELATIVE_ZH.exec(text)
  if (zh !== null) return new Date(now.getTime() - Number(zh[1]) * UNIT_MS[CJK_UNITS[zh[2]!]!]!)
  return null
}

function toDate(value: unknown, now: Date): Date | null {
  if (value instanceof Date) return value
  if (typeof value === 'number') {
    // Unix seconds or milliseconds: anything below 1e11 cannot be milliseconds after 1973.
    return Number.isFinite(value) ? new Date(value < 1e11 ? value * 1000 : value) : null
  }
  if (typeof value !== 'string') return null
  const text = value.trim()
  if (text === '') return null
  if (/^\d{10}(?:\d{3})?$/.test(text)) return toDate(Number(text), now)
  const zoned = ISO_ZONED.exec(text)
  if (zoned !== null) {
    const zone = zoned[3]!.toUpperCase() === 'Z' ? 'Z' : zoned[3]!.replace(/^([+-]\d{2}):?(\d{2})$/, '$1:$2')
    return new Date(`${zoned[1]}T${zoned[2]}${zone}`)
  }
  const dateOnly = DATE_ONLY.exec(text) ?? SLASH_DATE.exec(text) ?? ZH_DATE.exec(text)
  if (dateOnly !== null) return utcDate(Number(dateOnly[1]), Number(dateOnly[2]), Number(dateOnly[3]))
  // NOTE(brave): `page_age` is ISO without a zone; we read it as UTC, never as this machine's local time.
  const noZone = ISO_NO_ZONE.exec(text)
  if (noZone !== null) return new Date(`${noZone[1]}T${noZone[2]}Z`)
  const rel = relative(text, now)
  if (rel !== null) return rel
  // RFC 2822 / HTTP-date ("Wed, 01 May 2024 12:34:56 GMT") and "May 1, 2024": V8 parses these, but
  // reads a zone-less one as local time, so pin it to UTC.
  const parsed = Date.parse(HAS_ZONE.test(text) ? text : `${text} UTC`)
  return Number.isNaN(parsed) ? null : new Date(parsed)
}

/**
 * Parse any date a provider sends (ISO with or without milliseconds or zone, RFC 2822/HTTP-date, `YYYY-MM-DD`,
 * "3 days ago", "3天前", Unix time) to an ISO 8601 string, or null when it is not a usable date. Never throws.
 */
export function parseDate(value: unknown, options: ParseDateOptions = {}): string | null {
  const time = parseDateTime(value, options.now ?? new Date())
  if (time === null) return null
  return typeof value === 'string' && CANONICAL_ISO.test(value) ? value : isoString(time)
}

/**
 * `new Date(time).toISOString()` for a time in years 0–9999 (every time `parseDateTime` returns is), without the
 * `Date`: V8's version costs more than reading the date itself. Civil date from days after H. Hinnant's
 * `civil_from_days`; one flat string from char codes.
 */
export function isoString(time: number): string {
  const days = Math.floor(time / DAY_MS)
  const ms = time - days * DAY_MS
  // Days since 0000-03-01, so that a year's leap day is its last day.
  const z = days + 719_468
  const era = Math.floor(z / 146_097)
  const dayOfEra = z - era * 146_097
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  )
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100))
  const shifted = Math.floor((5 * dayOfYear + 2) / 153)
  const day = dayOfYear - Math.floor((153 * shifted + 2) / 5) + 1
  const month = shifted < 10 ? shifted + 3 : shifted - 9
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
  const hour = Math.floor(ms / 3_600_000)
  const minute = Math.floor(ms / 60_000) % 60
  const second = Math.floor(ms / 1000) % 60
  const milli = ms % 1000
  return String.fromCharCode(
    48 + Math.floor(year / 1000),
    48 + (Math.floor(year / 100) % 10),
    48 + (Math.floor(year / 10) % 10),
    48 + (year % 10),
    45,
    48 + Math.floor(month / 10),
    48 + (month % 10),
    45,
    48 + Math.floor(day / 10),
    48 + (day % 10),
    84,
    48 + Math.floor(hour / 10),
    48 + (hour % 10),
    58,
    48 + Math.floor(minute / 10),
    48 + (minute % 10),
    58,
    48 + Math.floor(second / 10),
    48 + (second % 10),
    46,
    48 + Math.floor(milli / 100),
    48 + (Math.floor(milli / 10) % 10),
    48 + (milli % 10),
    90,
  )
}

/**
 * `parseDate` as epoch milliseconds, for callers that compare or subtract dates: skips building an ISO string
 * only to parse it back. Never throws.
 */
export function parseDateTime(value: unknown, now: Date): number | null {
  if (typeof value === 'string') {
    const time = fastDateTime(value, now)
    if (time !== undefined) return time
  }
  return generalDateTime(value, now)
}

/**
 * `parseDateTime` without the char-code readers of `fastDateTime`: regexes, `Date.parse` and `Date` objects.
 * Exported for the tests, which hold the fast readers to it.
 */
export function generalDateTime(value: unknown, now: Date): number | null {
  // Fast path for what most providers send and what we emit: already canonical ISO, checked field by field
  // (V8's Date.parse would roll 02-30 over to March instead of failing).
  if (typeof value === 'string' && value.length === 24) {
    const time = canonicalIsoTime(value)
    if (time !== undefined) return time
  }
  const date = toDate(value, now)
  if (date === null) return null
  const time = date.getTime()
  if (Number.isNaN(time)) return null
  const year = date.getUTCFullYear()
  return year < MIN_YEAR || year > MAX_YEAR ? null : time
}
