import { DAY_MS } from './_math.js'

// What both date readers (the general one in date.ts, the char-code one in _date-fast.ts) agree on.

export const UNIT_MS: Record<string, number> = {
  second: 1000,
  minute: 60_000,
  hour: 3_600_000,
  day: DAY_MS,
  week: 7 * DAY_MS,
  // Calendar-free approximations: a relative date is only as precise as the provider's rounding anyway.
  month: 30 * DAY_MS,
  year: 365 * DAY_MS,
}

export const UNIT_ALIASES: Record<string, string> = {
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

export const CJK_UNITS: Record<string, string> = {
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
export const MIN_YEAR = 1900
export const MAX_YEAR = 2200

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31
}

const MIN_TIME = Date.UTC(MIN_YEAR, 0, 1)
const MAX_TIME = Date.UTC(MAX_YEAR + 1, 0, 1)

/** The MIN_YEAR..MAX_YEAR check on a time, without a `Date` to read its year from (NaN fails too). */
export function inRange(time: number): number | null {
  return time >= MIN_TIME && time < MAX_TIME ? time : null
}
