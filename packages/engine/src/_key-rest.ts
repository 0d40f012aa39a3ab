import { ProviderError, type ProviderErrorKind, isProviderError } from '@search-layer/core'
import type { CircuitBreaker, CircuitState, CircuitTicket } from './_circuit.js'
import { learnFromError } from './_key-limits.js'
import { KEY_KINDS, KEY_REST_MS, type KeySlot, type PoolScope, iso, moveWaiters } from './_key-slot.js'
import { PACE_DEADLINE } from './_rate-limit.js'

// Each key's circuit: letting a call start, what a failure costs the key (a rest of its own while others serve),
// and the pool's state and error when every key rests.

/**
 * Waits until a key's circuit lets this call start: at once when closed, after the in-flight probe when half-open.
 * Throws a `ProviderError` while it rests, or `timeout` when the search ends first.
 */
export async function admitCall(name: string, circuit: CircuitBreaker, signal: AbortSignal): Promise<CircuitTicket> {
  for (;;) {
    const admission = circuit.admit()
    if (admission.type === 'call') return admission.ticket
    if (admission.type === 'rest') {
      const last = circuit.state().lastError
      throw new ProviderError(
        `${name} is resting after repeated failures; it will be retried at ${iso(admission.until)}`,
        {
          kind: last?.kind ?? 'upstream',
          provider: name,
          retryable: true,
        },
      )
    }
    await untilSettledOrAborted(admission.settled, signal)
  }
}

function untilSettledOrAborted(settled: Promise<void>, signal: AbortSignal): Promise<void> {
  const cancelled = () => new ProviderError('search was cancelled', { kind: 'timeout', retryable: false })
  if (signal.aborted) return Promise.reject(cancelled())
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(cancelled())
    signal.addEventListener('abort', onAbort, { once: true })
    void settled.then(() => {
      signal.removeEventListener('abort', onAbort)
      resolve()
    })
  })
}

/** A call on `slot` failed with `caught`: its circuit counts it, and a refused key rests while other keys serve. */
export function recordFailure(pool: PoolScope, slot: KeySlot, ticket: CircuitTicket, caught: unknown): void {
  const error = isProviderError(caught)
    ? caught
    : { kind: 'bad_response' as const, message: caught instanceof Error ? caught.message : String(caught) }
  if (isProviderError(caught)) learnFromError(pool, slot, caught.limits)
  // The vendor refused the parameters we sent, or the call never went out (no shared slot before the deadline):
  // the service and the key are fine, so the circuit learns nothing.
  if (error.kind === 'bad_request' || (isProviderError(caught) && caught.code === PACE_DEADLINE)) return
  slot.circuit.failure(ticket, error)
  if (pool.several() && KEY_KINDS.has(error.kind)) slot.circuit.restUntil(pool.now() + restMs(pool, slot, error), error)
  if (slot.circuit.isOpen()) {
    slot.dirty = true
    moveWaiters(pool, slot)
  }
}

function restMs(pool: PoolScope, slot: KeySlot, error: { kind: ProviderErrorKind; retryAfterMs?: number }): number {
  const now = pool.now()
  const limits = slot.limits
  if (error.kind === 'rate_limited') {
    const vendorAt = Math.max(limits?.retryAt ?? 0, limits?.remaining === 0 ? (limits.resetAt ?? 0) : 0)
    return error.retryAfterMs ?? (vendorAt > now ? vendorAt - now : pool.cooldownMs())
  }
  if (error.kind === 'quota' && limits?.quotaResetAt !== undefined && limits.quotaResetAt > now)
    return limits.quotaResetAt - now
  return KEY_REST_MS
}

/** The provider as a whole: open (resting) only when every key rests. */
export function poolState(slots: readonly KeySlot[]): CircuitState {
  const states = slots.map((slot) => slot.circuit.state())
  const usable = states.find((s) => !s.open)
  if (usable || states.length === 0) return usable ?? { open: false, phase: 'closed', consecutiveFailures: 0 }
  const soonest = states.reduce((a, b) => ((a.until ?? 0) <= (b.until ?? 0) ? a : b))
  return soonest
}

/** The error a call gets when no key is left to try: every key rests. */
export function restingError(pool: PoolScope, slots: readonly KeySlot[]): ProviderError {
  const state = poolState(slots)
  const until = iso(state.until ?? pool.now())
  const message =
    slots.length > 1
      ? `${pool.name}: every key is resting (${slots
          .map((s) => `${s.label}: ${s.circuit.state().lastError?.kind ?? 'resting'}`)
          .join(', ')}); the first is retried at ${until}`
      : `${pool.name} is resting after repeated failures; it will be retried at ${until}`
  return new ProviderError(message, {
    kind: state.lastError?.kind ?? 'upstream',
    provider: pool.name,
    retryable: true,
  })
}
