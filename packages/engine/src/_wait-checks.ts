import type { RateLimitInfo } from '@search-layer/core'
import { type RateLimitReading, upstreamTimeAt, upstreamWaitMs } from '@search-layer/core/http'
import type { KeyState, LearnedLimits } from './key-state-store.js'

// Everything a key's pool learns from outside (an answer's headers or body, a state file, Redis) passes through here
// before it sets a pause, a rest or a date: core's `upstreamWaitMs` rule, plus the pool's longest rest.

const TIMES = ['resetAt', 'quotaResetAt', 'retryAt'] as const

/** The sentence a search's `warnings` carry when a provider sent waits that were ignored; one per provider. */
export function ignoredWaitWarning(provider: string, fields: readonly string[]): string {
  return `${provider} sent a wait that is not a number, negative or over a year away (${fields.join(', ')}); it was ignored`
}

/**
 * Limits a provider stated in its answer's body (Stack Exchange's `backoff`, its daily quota), relative to `nowMs`,
 * as a reading with absolute times; `ignored` names the fields whose wait was not usable.
 */
export function readingFromAnswer(
  info: RateLimitInfo,
  nowMs: number,
): { reading: RateLimitReading; ignored: string[] } {
  const ignored: string[] = []
  const at = (field: 'resetMs' | 'quotaResetMs') => {
    if (info[field] === undefined) return undefined
    const waitMs = upstreamWaitMs(info[field])
    if (waitMs === undefined) ignored.push(field === 'resetMs' ? 'its answer’s reset' : 'its answer’s quota reset')
    return waitMs === undefined ? undefined : nowMs + waitMs
  }
  const resetAt = at('resetMs')
  const quotaResetAt = at('quotaResetMs')
  const reading: RateLimitReading = {
    ...(info.remaining !== undefined && { remaining: info.remaining }),
    ...(resetAt !== undefined && { resetAt }),
    ...(info.quotaLimit !== undefined && { quotaLimit: info.quotaLimit }),
    ...(info.quotaRemaining !== undefined && { quotaRemaining: info.quotaRemaining }),
    ...(quotaResetAt !== undefined && { quotaResetAt }),
  }
  return { reading, ignored }
}

/**
 * A stored key state read back (a file anyone can edit, another instance's Redis entry, one written under a longer
 * configured rest), made safe to act on: a rest at most `maxRestMs` from now, times no later than a year ahead
 * dropped, latency dated no later than now. `changed` says the stored copy is worth rewriting.
 */
export function checkedKeyState(
  state: KeyState,
  nowMs: number,
  maxRestMs: number,
): { state: KeyState; changed: boolean } {
  let changed = false
  const limits = state.limits && { ...state.limits }
  if (limits)
    for (const field of TIMES) {
      if (limits[field] === undefined || upstreamTimeAt(limits[field], nowMs) !== undefined) continue
      delete limits[field]
      changed = true
    }
  let restUntil = state.restUntil
  if (restUntil !== undefined && restUntil > nowMs + maxRestMs) {
    restUntil = nowMs + maxRestMs
    changed = true
  }
  // Samples dated in the future (a clock set wrong, an edited file) would outrank every newer sample: dated now.
  let latency = state.latency
  if (latency && latency.updatedAt > nowMs) {
    latency = { ...latency, updatedAt: nowMs }
    changed = true
  }
  if (!changed) return { state, changed }
  const { restUntil: _old, limits: _limits, latency: _latency, ...rest } = state
  return {
    state: {
      ...rest,
      ...(limits && { limits: limits as LearnedLimits }),
      ...(restUntil !== undefined && { restUntil }),
      ...(latency && { latency }),
    },
    changed,
  }
}
