import { DAY_MS } from './_math.js'
import { CJK_UNITS, daysInMonth, inRange, MAX_YEAR, MIN_YEAR, UNIT_ALIASES, UNIT_MS } from './_date-units.js'

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
