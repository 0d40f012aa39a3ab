/**
 * The one rule for waits an upstream states (a `Retry-After`, a rate-limit reset, a body's `backoff`, a replayed
 * cassette's headers): every such number is range-checked here before it reaches a timer, a date or a TTL. A
 * vendor's word is a hint, not an order: `Retry-After: 315360000` must not rest a key for ten years, and 309 digits
 * (Infinity once read) must not reach `new Date()` or `setTimeout`.
 */

/** The longest delay Node's timers hold (2^31 − 1 ms, ~24.8 days); a longer one fires after 1 ms, with a warning. */
export const MAX_TIMER_MS = 2_147_483_647

/** The longest a key rests on a vendor's word unless configured otherwise (`SEARCH_LAYER_MAX_KEY_REST_MS`). */
export const DEFAULT_MAX_KEY_REST_MS = 60 * 60_000

/**
 * Beyond this an upstream's wait is not believed at all: no vendor window or quota period is longer than a year,
 * so a larger figure is a bug, a tampered answer or an overflow, and waiting any part of it would be a guess.
 */
export const MAX_UPSTREAM_WAIT_MS = 366 * 24 * 60 * 60_000

/**
 * A delay an upstream asked for (ms) as a wait worth honouring: whole ms, at most `maxMs`; undefined when the value
 * is not a finite number, is negative or is beyond a year (`MAX_UPSTREAM_WAIT_MS`). Pure; never throws.
 */
export function upstreamWaitMs(ms: unknown, maxMs: number = MAX_UPSTREAM_WAIT_MS): number | undefined {
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0 || ms > MAX_UPSTREAM_WAIT_MS) return undefined
  return Math.min(Math.round(ms), maxMs)
}

/**
 * A time an upstream named (epoch ms: a reset, a quota's end) as one safe to store and format: at most a year from
 * `nowMs`; undefined when not finite, negative or later. A time already past is kept (it means "now").
 */
export function upstreamTimeAt(at: unknown, nowMs: number): number | undefined {
  if (typeof at !== 'number' || !Number.isFinite(at) || at < 0 || at > nowMs + MAX_UPSTREAM_WAIT_MS) return undefined
  return Math.round(at)
}

/** A delay as `setTimeout` can hold it: 0 for anything not a positive number, at most `MAX_TIMER_MS`. */
export function timerMs(ms: number): number {
  return Number.isFinite(ms) || ms === Number.POSITIVE_INFINITY ? Math.min(MAX_TIMER_MS, Math.max(0, ms)) : 0
}
