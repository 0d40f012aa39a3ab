import type { ProviderErrorKind } from '@search-layer/core'
import type { CircuitBreaker } from './_circuit.js'
import type { LearnedLatency } from './_latency.js'
import type { RateLimiter } from './_rate-limit.js'
import type { LearnedLimits } from './key-state-store.js'

// What the key pool's parts share: one key's slot, the pool as they see it, and the rules more than one part keeps.

export interface KeySlot {
  /** Undefined: the provider resolves its own (keyless, or replaying cassettes without a key). */
  key: string | undefined
  id: string
  label: string
  /** Where the key stands in the configured list (0-based): its label says so. */
  index: number
  circuit: CircuitBreaker
  limiter: RateLimiter | undefined
  limits?: LearnedLimits
  /** How long its calls took lately. */
  latency?: LearnedLatency
  /** Something worth storing changed during the call. */
  dirty: boolean
}

/** The pool as its parts see it, read when they ask: its provider, clock and rests, and whether it has a spare key. */
export interface PoolScope {
  /** The provider's id. */
  readonly name: string
  now(): number
  /** The longest rest on anyone's word (`CircuitOptions.maxRestMs`). */
  maxRestMs(): number
  /** The circuit's first cooldown: a rate limit with no stated wait rests this long. */
  cooldownMs(): number
  /** More than one key is configured: another key can take a resting key's calls. */
  several(): boolean
}

// Answers about the key itself: another key may well succeed where this one was refused.
export const KEY_KINDS: ReadonlySet<ProviderErrorKind> = new Set(['auth', 'quota', 'rate_limited'])
// A rejected key, or a used-up quota whose reset the vendor did not say, rests this long.
export const KEY_REST_MS = 60 * 60_000

export const iso = (ms: number) => new Date(ms).toISOString()

/** A call waiting for a key that has since started to rest or wait out its vendor's window: it takes another key. */
export class KeyUnavailable extends Error {
  override readonly name = 'KeyUnavailable'
}

// Calls queued behind a key that now rests or waits out its window go to the other keys instead; with no other
// key, those the wait would outlast fail now, not at their deadline.
export function moveWaiters(pool: PoolScope, slot: KeySlot): void {
  if (pool.several()) slot.limiter?.evictWaiters(new KeyUnavailable(`${pool.name} ${slot.label} is resting`))
  else slot.limiter?.refuseOutlasted()
}
