import { DAY_MS, round4 } from './_math.js'
import { parseDateTime } from './date.js'

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
