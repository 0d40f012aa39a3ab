import { upstreamTimeAt, upstreamWaitMs } from './upstream-wait.js'

/**
 * Parses `Retry-After` (delta-seconds or HTTP-date) into milliseconds from `now`. Undefined when absent, malformed,
 * or not a believable wait (Infinity from 309 digits, a date years ahead): see `upstreamWaitMs`.
 */
export function parseRetryAfter(value: string | undefined | null, now: number = Date.now()): number | undefined {
  if (!value) return undefined
  const trimmed = value.trim()
  if (/^\d+(\.\d+)?$/.test(trimmed)) return upstreamWaitMs(Number(trimmed) * 1000)
  // An HTTP-date names its month; `Date.parse` would also read a bare "-5" as the year -5.
  const at = /[a-z]/i.test(trimmed) ? Date.parse(trimmed) : Number.NaN
  return Number.isNaN(at) ? undefined : upstreamWaitMs(Math.max(0, at - now))
}

/**
 * What a vendor's answer says about its limits for the key that made the call, in absolute times (epoch ms) so it
 * can be stored and read back later.
 */
export interface RateLimitReading {
  /** Requests per second the key may make, when the vendor states a limit with a known window. */
  perSecond?: number
  /** Requests left in the short window, and when that window resets. */
  remaining?: number
  resetAt?: number
  /** The short window's length, when the vendor states it (a policy's `w=`, Brave's pair): a call's share of the window ends this long after it was sent. */
  windowMs?: number
  /** The long (monthly) quota: its size, what is left, when it resets. */
  quotaLimit?: number
  quotaRemaining?: number
  quotaResetAt?: number
  /** `Retry-After`, as the time the vendor allows the next call. */
  retryAt?: number
}

const DAY_S = 24 * 60 * 60
// A short window is one a burst of searches can exhaust (Brave's is 1 s); anything from a day up is a quota.
const SHORT_WINDOW_MAX_S = 60
// Reset values this large are Unix times, not delays (Exa sends `x-ratelimit-reset: 1770771778`).
const EPOCH_SECONDS_FROM = 1_000_000_000

function numberList(value: string | undefined): (number | undefined)[] {
  if (!value) return []
  return value.split(',').map((part) => {
    const n = Number(part.trim())
    return part.trim() !== '' && Number.isFinite(n) && n >= 0 ? n : undefined
  })
}

// `1;w=1, 15000;w=2592000` (IETF RateLimit-Policy, as Brave sends it): each entry's window in seconds.
function policyWindows(value: string | undefined): (number | undefined)[] {
  if (!value) return []
  return value.split(',').map((entry) => {
    const w = /;\s*w=(\d+(?:\.\d+)?)/.exec(entry)?.[1]
    return w === undefined ? undefined : Number(w)
  })
}

// Unusable values (negative, not finite, beyond a year) are undefined: see `upstreamWaitMs`.
function resetTime(seconds: number | undefined, nowMs: number): number | undefined {
  if (seconds === undefined) return undefined
  if (seconds >= EPOCH_SECONDS_FROM) return upstreamTimeAt(seconds * 1000, nowMs)
  const waitMs = upstreamWaitMs(seconds * 1000)
  return waitMs === undefined ? undefined : nowMs + waitMs
}

/**
 * Milliseconds from `nowMs` until a rate-limit reset header's time: values from 10^9 up are Unix times in seconds
 * (Exa), smaller ones are seconds to wait (Brave). Never negative; undefined for a value no wait can be read from
 * (negative, not finite, more than a year away). Pure; never throws.
 */
export function resetDelayMs(seconds: number, nowMs: number): number | undefined {
  const at = resetTime(seconds, nowMs)
  return at === undefined ? undefined : Math.max(0, Math.round(at - nowMs))
}

// OpenAI-style durations, as xAI sends them: `1s`, `6m0s`, `20ms`, `1h2m3.5s`.
function durationMs(value: string | undefined): number | undefined {
  if (!value) return undefined
  const text = value.trim()
  if (/^\d+(\.\d+)?$/.test(text)) return upstreamWaitMs(Number(text) * 1000)
  const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }
  let total = 0
  let rest = text
  while (rest.length > 0) {
    const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)/.exec(rest)
    if (!m) return undefined
    total += Number(m[1]) * units[m[2]!]!
    rest = rest.slice(m[0].length)
  }
  return upstreamWaitMs(total)
}

function first(headers: Readonly<Record<string, string>>, names: readonly string[]): string | undefined {
  for (const name of names) if (headers[name] !== undefined) return headers[name]
  return undefined
}

/**
 * Reads the rate-limit headers vendors send: `X-RateLimit-Limit/Remaining/Reset` with one value or Brave's two
 * (`1, 15000`: per second, per month; windows from `X-RateLimit-Policy` when sent), the IETF `RateLimit-*` names,
 * xAI/OpenAI's `x-ratelimit-*-requests`, and `Retry-After`. Header names must be lower-case. Undefined when the answer
 * says nothing about limits. Pure; never throws.
 */
export function readRateLimitHeaders(
  headers: Readonly<Record<string, string>>,
  nowMs: number,
): RateLimitReading | undefined {
  const reading: RateLimitReading = {}
  const limits = numberList(first(headers, ['x-ratelimit-limit', 'ratelimit-limit']))
  const remaining = numberList(first(headers, ['x-ratelimit-remaining', 'ratelimit-remaining']))
  const resets = numberList(first(headers, ['x-ratelimit-reset', 'ratelimit-reset']))
  const declared = policyWindows(first(headers, ['x-ratelimit-policy', 'ratelimit-policy']))
  // NOTE(brave): two values without a policy are Brave's documented pair, per second then per month.
  const windows = declared.length > 0 ? declared : limits.length === 2 ? [1, 30 * DAY_S] : []
  const count = Math.max(limits.length, remaining.length, resets.length)
  for (let i = 0; i < count; i++) {
    const window = windows[i]
    const isQuota = window !== undefined && window >= DAY_S
    const limit = limits[i]
    if (isQuota) {
      if (limit !== undefined) reading.quotaLimit = limit
      if (remaining[i] !== undefined) reading.quotaRemaining = remaining[i]
      const at = resetTime(resets[i], nowMs)
      if (at !== undefined) reading.quotaResetAt = at
      continue
    }
    if (i > 0 && window === undefined) continue
    if (window !== undefined && window > 0 && window <= SHORT_WINDOW_MAX_S) {
      reading.windowMs = window * 1000
      if (limit !== undefined) reading.perSecond = limit / window
    }
    if (remaining[i] !== undefined) reading.remaining = remaining[i]
    const at = resetTime(resets[i], nowMs)
    if (at !== undefined) reading.resetAt = at
  }
  const requestsLeft = numberList(headers['x-ratelimit-remaining-requests'])[0]
  if (reading.remaining === undefined && requestsLeft !== undefined) reading.remaining = requestsLeft
  const requestsReset = durationMs(headers['x-ratelimit-reset-requests'])
  if (reading.resetAt === undefined && requestsReset !== undefined) reading.resetAt = nowMs + requestsReset
  const retryAfterMs = parseRetryAfter(headers['retry-after'], nowMs)
  if (retryAfterMs !== undefined) reading.retryAt = nowMs + retryAfterMs
  return Object.keys(reading).length > 0 ? reading : undefined
}

const WAIT_HEADERS = ['retry-after', 'x-ratelimit-reset', 'ratelimit-reset', 'x-ratelimit-reset-requests'] as const

/**
 * The wait headers of an answer (`Retry-After`, the reset headers) that were sent but give no usable wait: malformed,
 * negative, not finite or more than a year away. `readRateLimitHeaders` ignores them; the caller says so, once.
 * Header names must be lower-case. Pure; never throws.
 */
export function unusableWaitHeaders(headers: Readonly<Record<string, string>>, nowMs: number): string[] {
  return WAIT_HEADERS.filter((name) => {
    const value = headers[name]?.trim()
    if (!value) return false
    if (name === 'retry-after') return parseRetryAfter(value, nowMs) === undefined
    if (name === 'x-ratelimit-reset-requests') return durationMs(value) === undefined
    return value.split(',').some((part) => part.trim() !== '' && resetTime(Number(part.trim()), nowMs) === undefined)
  })
}
