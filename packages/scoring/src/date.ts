import { DAY_MS, round4 } from './_math.js'

export interface ParseDateOptions {
  /** The clock for relative dates ("3 days ago"); defaults to the current time. */
  now?: Date
}

const UNIT_MS: Record<string, number> = {
  second: 1000,
  minute: 60_000,
  hour: 3_600_000,
  day: DAY_MS,
  week: 7 * DAY_MS,
  // Calendar-free approximations: a relative date is only as precise as the provider's rounding anyway.
  month: 30 * DAY_MS,
  year: 365 * DAY_MS,
}

const UNIT_ALIASES: Record<string, string> = {
  s: 'second',
  sec: 'second',
  secs: 'second',
  m: 'minute',
  min: 'minute',
  mins: 'minute',
  h: 'hour',
  hr: 'hour',
  hrs: 'hour',
  d: 'day',
  w: 'week',
  wk: 'week',
  mo: 'month',
  y: 'year',
  yr: 'year',
}

const CJK_UNITS: Record<string, string> = {
  秒: 'second',
  分钟: 'minute',
  小时: 'hour',
  天: 'day',
  周: 'week',
  星期: 'week',
  个月: 'month',
  月: 'month',
  年: 'year',
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
const MIN_YEAR = 1900
const MAX_YEAR = 2200

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31
}

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

const MIN_TIME = Date.UTC(MIN_YEAR, 0, 1)
const MAX_TIME = Date.UTC(MAX_YEAR + 1, 0, 1)

/** The MIN_YEAR..MAX_YEAR check on a time, without a `Date` to read its year from (NaN fails too). */
function inRange(time: number): number | null {
  return time >= MIN_TIME && time < MAX_TIME ? time : null
}

/**
 * `generalDateTime` for the shapes providers send, read by char code: undefined for any other shape (the general
 * path decides), else exactly what the general path gives. Every shape is read only where it cannot reach
 * another branch of `toDate`, and only with fields in the ranges where `Date.UTC` agrees with V8's date parser
 * (no 24:00, leap seconds, 2-digit or far years): those go the general way.
 */
export function fastDateTime(text: string, now: Date): number | null | undefined {
  const length = text.length
  if (length === 24) {
    const time = canonicalIsoTime(text)
    if (time !== undefined) return time
  }
  const first = text.charCodeAt(0)
  if (first >= 48 && first <= 57) return numericDate(text, length, now)
  if (first >= 65 && first <= 90 && length >= 11) return namedDate(text, length)
  return undefined
}

/** Dates that start with a digit: ISO date or local time, YYYY/M/D, YYYY年M月D日, "3 days ago", "3天前". */
function numericDate(text: string, length: number, now: Date): number | null | undefined {
  let at = 0
  let count = 0
  for (; at < length && at < 15; at++) {
    const c = text.charCodeAt(at)
    if (c < 48 || c > 57) break
    count = count * 10 + c - 48
  }
  if (at === length || at === 15) return undefined
  const c = text.charCodeAt(at)
  if (at === 4) {
    if (c === 45) {
      const month = digits2(text, 5)
      const day = digits2(text, 8)
      if (text.charCodeAt(7) !== 45 || Number.isNaN(month + day)) return undefined
      // DATE_ONLY
      if (length === 10) return calendarTime(count, month, day)
      // ISO_NO_ZONE as "YYYY-MM-DDTHH:MM:SS", read as UTC
      if (length === 19 && text.charCodeAt(10) === 84 && text.charCodeAt(13) === 58 && text.charCodeAt(16) === 58) {
        const hour = digits2(text, 11)
        const minute = digits2(text, 14)
        const second = digits2(text, 17)
        if (!(month >= 1 && month <= 12 && day >= 1 && day <= 31 && hour <= 23 && minute <= 59 && second <= 59)) {
          return undefined
        }
        // Day 29-31 of a shorter month rolls over into the next one (V8's ISO parser does it too), never into
        // another year: outside MIN_YEAR..MAX_YEAR it is null whatever the rest says.
        if (count < MIN_YEAR || count > MAX_YEAR) return null
        return inRange(utcTime(count, month, day, hour, minute, second, 0))
      }
      return undefined
    }
    // SLASH_DATE: YYYY[/.]M[/.]D
    if (c === 47 || c === 46) {
      const month = shortNumber(text, 5)
      if (month === undefined) return undefined
      const next = 5 + shortWidth(text, 5)
      const separator = text.charCodeAt(next)
      if (separator !== 47 && separator !== 46) return undefined
      const day = shortNumber(text, next + 1)
      if (day === undefined || next + 1 + shortWidth(text, next + 1) !== length) return undefined
      return calendarTime(count, month, day)
    }
    // ZH_DATE: YYYY年M月D日, anything after it ignored
    if (c === 0x5e74 && isDigit(text.charCodeAt(5))) {
      const month = shortNumber(text, 5)
      if (month === undefined) return undefined
      const next = 5 + shortWidth(text, 5)
      if (text.charCodeAt(next) !== 0x6708) return undefined
      const day = shortNumber(text, next + 1)
      if (day === undefined || text.charCodeAt(next + 1 + shortWidth(text, next + 1)) !== 0x65e5) return undefined
      return calendarTime(count, month, day)
    }
  }
  // RELATIVE_EN as "N unit(s) ago": one space each side, lower case.
  if (c === 32) {
    const start = at + 1
    let end = start
    while (end < length && text.charCodeAt(end) >= 97 && text.charCodeAt(end) <= 122) end++
    if (end === start || end + 4 !== length || !text.endsWith(' ago')) return undefined
    // `([a-z]+?)s?` gives up one trailing "s" when the word has more.
    if (end - start > 1 && text.charCodeAt(end - 1) === 115) end--
    const unit = englishUnit(text.slice(start, end))
    return unit === undefined ? undefined : inRange(now.getTime() - count * unit)
  }
  // RELATIVE_ZH without a space: N秒前, N分钟前, N小时前, N天前, N周前, N星期前, N个月前, N月前, N年前.
  if (text.charCodeAt(length - 1) === 0x524d) {
    const unit = CJK_UNIT_MS.get(text.slice(at, length - 1))
    return unit === undefined ? undefined : inRange(now.getTime() - count * unit)
  }
  return undefined
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57
}

/** One or two ASCII digits at `at` (`\d{1,2}` followed by a non-digit), or undefined. */
function shortNumber(text: string, at: number): number | undefined {
  const high = text.charCodeAt(at)
  if (!isDigit(high)) return undefined
  const low = text.charCodeAt(at + 1)
  if (!isDigit(low)) return high - 48
  return isDigit(text.charCodeAt(at + 2)) ? undefined : (high - 48) * 10 + low - 48
}

/** How many digits `shortNumber` read at `at`. */
function shortWidth(text: string, at: number): number {
  return isDigit(text.charCodeAt(at + 1)) ? 2 : 1
}

/** `utcDate` then the year range, as a time: null for a day that is not on the calendar. */
function calendarTime(year: number, month: number, day: number): number | null {
  // Date.UTC reads years below 100 as 19xx, so utcDate never round-trips them.
  if (year < 100 || !(month >= 1 && month <= 12) || !(day >= 1 && day <= daysInMonth(year, month))) return null
  return inRange(utcTime(year, month, day, 0, 0, 0, 0))
}

const OWN = Object.prototype.hasOwnProperty

function englishUnit(word: string): number | undefined {
  if (OWN.call(UNIT_MS, word)) return UNIT_MS[word]
  return OWN.call(UNIT_ALIASES, word) ? UNIT_MS[UNIT_ALIASES[word]!] : undefined
}

const CJK_UNIT_MS = new Map(Object.entries(CJK_UNITS).map(([word, unit]) => [word, UNIT_MS[unit]!]))

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']

/** Three ASCII letters at `at` as one number, for looking names up without a slice. */
function key3(text: string, at: number): number {
  return text.charCodeAt(at) * 0x10000 + text.charCodeAt(at + 1) * 0x100 + text.charCodeAt(at + 2)
}

const MONTH_KEYS = new Map(MONTHS.map((name, index) => [key3(name, 0), index + 1]))
const WEEKDAY_KEYS = new Set(WEEKDAYS.map((name) => key3(name, 0)))

/**
 * The two `Date.parse` shapes providers send: RFC 1123 "Sun, 05 Jan 2024 08:00:00 GMT" and "Jan 5, 2024" (read
 * as UTC), with an English name as written in them.
 */
function namedDate(text: string, length: number): number | null | undefined {
  if (text.charCodeAt(3) === 44) {
    // "Ddd, D[D] Mmm YYYY HH:MM:SS GMT"
    if (text.charCodeAt(4) !== 32 || !WEEKDAY_KEYS.has(key3(text, 0))) return undefined
    const day = shortNumber(text, 5)
    if (day === undefined) return undefined
    const at = 5 + shortWidth(text, 5)
    if (length !== at + 22 || text.charCodeAt(at) !== 32 || text.charCodeAt(at + 4) !== 32) return undefined
    const month = MONTH_KEYS.get(key3(text, at + 1))
    const year = digits2(text, at + 5) * 100 + digits2(text, at + 7)
    if (
      month === undefined ||
      text.charCodeAt(at + 9) !== 32 ||
      text.charCodeAt(at + 12) !== 58 ||
      text.charCodeAt(at + 15) !== 58 ||
      !text.endsWith(' GMT')
    ) {
      return undefined
    }
    const hour = digits2(text, at + 10)
    const minute = digits2(text, at + 13)
    const second = digits2(text, at + 16)
    if (
      !(year >= MIN_YEAR && year <= MAX_YEAR && day >= 1 && day <= 31 && hour <= 23 && minute <= 59 && second <= 59)
    ) {
      return undefined
    }
    return inRange(utcTime(year, month, day, hour, minute, second, 0))
  }
  // "Mmm D[D], YYYY"
  const month = MONTH_KEYS.get(key3(text, 0))
  if (month === undefined || text.charCodeAt(3) !== 32) return undefined
  const day = shortNumber(text, 4)
  if (day === undefined) return undefined
  const at = 4 + shortWidth(text, 4)
  if (length !== at + 6 || text.charCodeAt(at) !== 44 || text.charCodeAt(at + 1) !== 32) return undefined
  const year = digits2(text, at + 2) * 100 + digits2(text, at + 4)
  if (!(year >= MIN_YEAR && year <= MAX_YEAR && day >= 1 && day <= 31)) return undefined
  return inRange(utcTime(year, month, day, 0, 0, 0, 0))
}

/**
 * `Date.UTC(year, month - 1, day, hour, minute, second, ms)` for years from 100 on (Date.UTC reads 0–99 as
 * 19xx), a month 1–12 and a day that may run past the month's end (it rolls over the same way): days from the
 * civil date after H. Hinnant's `days_from_civil`, in plain arithmetic the compiler inlines, where the builtin
 * costs a call several times the price.
 */
export function utcTime(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
  ms: number,
): number {
  const y = month <= 2 ? year - 1 : year
  const era = Math.floor(y / 400)
  const yearOfEra = y - era * 400
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear
  return (era * 146_097 + dayOfEra - 719_468) * DAY_MS + hour * 3_600_000 + minute * 60_000 + second * 1000 + ms
}

/** Two ASCII digits at `at` as a number; NaN (so every comparison with it fails) when either is not a digit. */
function digits2(text: string, at: number): number {
  const high = text.charCodeAt(at) - 48
  const low = text.charCodeAt(at + 1) - 48
  return high >= 0 && high <= 9 && low >= 0 && low <= 9 ? high * 10 + low : Number.NaN
}

/**
 * The time of a `YYYY-MM-DDTHH:MM:SS.sssZ` string (what CANONICAL_ISO matches), null when that is not a real
 * calendar time in range, undefined when the string has another shape. Read by char code: this runs for every
 * result that `rank` scores, where a regex, nine slices and `Date.parse` cost more than the rest of freshness.
 */
export function canonicalIsoTime(value: string): number | null | undefined {
  if (
    value.charCodeAt(4) !== 45 ||
    value.charCodeAt(7) !== 45 ||
    value.charCodeAt(10) !== 84 ||
    value.charCodeAt(13) !== 58 ||
    value.charCodeAt(16) !== 58 ||
    value.charCodeAt(19) !== 46 ||
    value.charCodeAt(23) !== 90
  ) {
    return undefined
  }
  const year = digits2(value, 0) * 100 + digits2(value, 2)
  const month = digits2(value, 5)
  const day = digits2(value, 8)
  const hour = digits2(value, 11)
  const minute = digits2(value, 14)
  const second = digits2(value, 17)
  const msHigh = value.charCodeAt(20) - 48
  const ms = digits2(value, 21)
  if (Number.isNaN(year + month + day + hour + minute + second + ms) || !(msHigh >= 0 && msHigh <= 9)) {
    return undefined
  }
  const valid =
    year >= MIN_YEAR &&
    year <= MAX_YEAR &&
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth(year, month) &&
    hour < 24 &&
    minute < 60 &&
    second < 60
  return valid ? utcTime(year, month, day, hour, minute, second, msHigh * 100 + ms) : null
}

export interface FreshnessOptions {
  now?: Date
  /** Age at which a dated result scores 0.5, like an undated one. Default 180 days. */
  halfLifeDays?: number
  /** Title + snippet, searched for a year when there is no date (a weak signal). */
  text?: string | null
}

/** Results dated this far in the future are clock skew or junk: treated as undated. */
const FUTURE_TOLERANCE_MS = 2 * DAY_MS
const YEAR_IN_TEXT = /(?<!\d)(19[89]\d|20\d\d)(?!\d)/g

function decay(ageMs: number, halfLifeDays: number): number {
  return 2 ** (-Math.max(0, ageMs) / (halfLifeDays * DAY_MS))
}

/**
 * Freshness in [0,1]: `2^(-age/halfLife)`, so today = 1, one half-life old = 0.5, no date = 0.5. Without a date,
 * the latest year in `text` counts at half strength around 0.5. Never throws.
 */
export function freshnessScore(publishedAt: unknown, options: FreshnessOptions = {}): number {
  const now = options.now ?? new Date()
  const halfLifeDays = halfLifeOf(options.halfLifeDays)
  const time = parseDateTime(publishedAt, now)
  return time !== null ? datedFreshness(time, now, halfLifeDays) : undatedFreshness(options.text, now, halfLifeDays)
}

/** `FreshnessOptions.halfLifeDays` with its default. */
export function halfLifeOf(halfLifeDays: number | undefined): number {
  return halfLifeDays !== undefined && halfLifeDays > 0 ? halfLifeDays : 180
}

/** `freshnessScore` of a result whose date parsed to `time`. */
export function datedFreshness(time: number, now: Date, halfLifeDays: number): number {
  const age = now.getTime() - time
  return age < -FUTURE_TOLERANCE_MS ? 0.5 : round4(decay(age, halfLifeDays))
}

/** `freshnessScore` of a result without a usable date: the latest year in its text, at half strength. */
export function undatedFreshness(text: string | null | undefined, now: Date, halfLifeDays: number): number {
  const year = latestYear(text, now)
  if (year === null) return 0.5
  const mid = Math.min(now.getTime(), Date.UTC(year, 6, 1))
  return round4(0.5 + (decay(now.getTime() - mid, halfLifeDays) - 0.5) / 2)
}

function latestYear(text: string | null | undefined, now: Date): number | null {
  if (typeof text !== 'string' || text === '') return null
  let best: number | null = null
  for (const match of text.matchAll(YEAR_IN_TEXT)) {
    const year = Number(match[1])
    if (year <= now.getUTCFullYear() && (best === null || year > best)) best = year
  }
  return best
}
