import { parseInput } from '@search-layer/core'
import { type Freshness, type FreshnessInput, FreshnessInputSchema } from './schema.js'

/** Days a status or news answer's sources stay current. */
export const FRESHNESS_WINDOW_DAYS: Readonly<Record<string, number>> = Object.freeze({ status: 30, news: 7 })

const DAY_MS = 86_400_000

/**
 * For a status or news question, whether every dated source is older than the intent's window (`stale`), and the
 * newest date; `undefined` for any other intent. Sources without a readable date are left out; when none is dated
 * nothing is known to be old, so `stale` is false. Pure (`now` is given); throws `InputError`.
 */
export function freshness(input: FreshnessInput): Freshness | undefined {
  const { intent, dates, now } = parseInput(FreshnessInputSchema, input, 'freshness input')
  const windowDays = Object.hasOwn(FRESHNESS_WINDOW_DAYS, intent) ? FRESHNESS_WINDOW_DAYS[intent] : undefined
  if (windowDays === undefined) return undefined
  let newest = Number.NEGATIVE_INFINITY
  for (const date of dates) {
    const ms = date === undefined ? Number.NaN : Date.parse(date)
    if (Number.isFinite(ms) && ms > newest) newest = ms
  }
  if (newest === Number.NEGATIVE_INFINITY) return { stale: false, windowDays }
  return {
    stale: now.getTime() - newest > windowDays * DAY_MS,
    newest: new Date(newest).toISOString(),
    windowDays,
  }
}
