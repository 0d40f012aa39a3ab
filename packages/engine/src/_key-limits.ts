import type { RateLimitInfo, UpstreamResponseMeta, VendorLimits } from '@search-layer/core'
import { type RateLimitReading, readRateLimitHeaders, unusableWaitHeaders } from '@search-layer/core/http'
import { KEY_REST_MS, type KeySlot, type PoolScope, moveWaiters } from './_key-slot.js'
import { readingFromAnswer } from './_wait-checks.js'

// A key's limits as its vendor states them (headers, an answer's body, a 429's body), kept on the key and applied
// to its pace and rest at once.

// The slowest pace a vendor's word is taken for: one call a minute (a limit of 1 in the longest short window). A
// slower one (a limit of 1e-300 in a header) would space calls by ages, past any timer and any deadline.
const MIN_VENDOR_PER_SECOND = 1 / 60

/** Learns from an answer's rate-limit headers; true when they said anything. Unusable waits go to `ignored`. */
export function learnFromHeaders(
  pool: PoolScope,
  slot: KeySlot,
  meta: UpstreamResponseMeta,
  sentAt: number,
  ignored: Set<string>,
): boolean {
  const now = pool.now()
  for (const name of unusableWaitHeaders(meta.headers, now)) ignored.add(name)
  const reading = readRateLimitHeaders(meta.headers, now)
  if (!reading) return false
  const resetAt = windowResetAt(reading, sentAt)
  remember(pool, slot, { ...reading, ...(resetAt !== undefined && { resetAt }) })
  return true
}

// Limits stated in a body, relative to now (Stack Exchange's daily quota and `backoff`), learned like headers.
export function learnFromAnswer(pool: PoolScope, slot: KeySlot, info: RateLimitInfo, ignored: Set<string>): void {
  const { reading, ignored: fields } = readingFromAnswer(info, pool.now())
  for (const field of fields) ignored.add(field)
  if (Object.keys(reading).length > 0) remember(pool, slot, reading)
}

// A 429 body can state the plan's limits where no header did (Brave's `meta`): pace by them from this call on.
export function learnFromError(pool: PoolScope, slot: KeySlot, limits: VendorLimits | undefined): void {
  if (limits) remember(pool, slot, limits)
}

// What the vendor said, from any of the three places it says it, kept for the key and applied at once.
function remember(pool: PoolScope, slot: KeySlot, limits: RateLimitReading | VendorLimits): void {
  slot.limits = { ...slot.limits, ...limits, learnedAt: pool.now() }
  slot.dirty = true
  applyPace(pool, slot)
}

// The vendor's word, applied: its per-second rate, a wait until a used-up window resets, a rest for a used-up quota.
export function applyPace(pool: PoolScope, slot: KeySlot): void {
  const limits = slot.limits
  if (!limits) return
  const now = pool.now()
  // A window's pause is a rest too: never longer than the longest one.
  const pauseUntil = (at: number) => slot.limiter?.pauseUntil(Math.min(at, now + pool.maxRestMs()))
  if (slot.limiter) {
    if (limits.perSecond !== undefined && limits.perSecond >= MIN_VENDOR_PER_SECOND)
      slot.limiter.adapt({ perSecond: limits.perSecond, burst: Math.max(1, Math.floor(limits.perSecond)) })
    if (limits.remaining === 0 && limits.resetAt !== undefined && limits.resetAt > now) pauseUntil(limits.resetAt)
    if (limits.retryAt !== undefined && limits.retryAt > now) pauseUntil(limits.retryAt)
    if (slot.limiter.pausedTill() !== undefined) moveWaiters(pool, slot)
  }
  if (limits.quotaRemaining === 0) {
    const until =
      limits.quotaResetAt !== undefined && limits.quotaResetAt > now ? limits.quotaResetAt : now + KEY_REST_MS
    slot.circuit.restUntil(until, { kind: 'quota', message: `${pool.name} ${slot.label}: monthly quota used up` })
  }
}

/**
 * When the short window this call used resets. NOTE(brave): the stated reset is whole seconds counted from the
 * answer (`1` after a 200 ms call means 1.2 s after the call was sent), yet the call's share of a window of known
 * length ends that long after it was sent. Holding the next call until the stated reset would add the round trip to
 * every paced call (3 calls at 1/s took 3.6 s instead of about 2.2 s); bounded by the window, the hold ends with the
 * pace interval, which also counts from when the call was sent.
 */
function windowResetAt(reading: RateLimitReading, sentAt: number): number | undefined {
  if (reading.resetAt === undefined || reading.windowMs === undefined) return reading.resetAt
  return Math.min(reading.resetAt, sentAt + reading.windowMs)
}
