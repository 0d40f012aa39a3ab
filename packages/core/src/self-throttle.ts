import { ProviderError } from './errors.js'
import { DEFAULT_MAX_KEY_REST_MS, upstreamWaitMs } from './upstream-wait.js'

/** Options of `createSelfThrottle`. */
export interface SelfThrottleOptions {
  /** The provider named in the error (`github`). */
  provider: string
  /** The error's `code` (`rate_limit_wait`, `backoff`). */
  code: string
  /** What is in force, after the provider's name: `search limit still in force`, `asked to back off`. */
  reason: string
  /** The longest wait believed (ms). Default `DEFAULT_MAX_KEY_REST_MS`, a key's longest default rest. */
  maxWaitMs?: number
  /** The clock waits are measured with; default `Date.now`. */
  clock?: () => number
}

/** A provider's own hold on its calls while an upstream's stated wait is in force. */
export interface SelfThrottle {
  /** Throws `ProviderError` `rate_limited` (with `retryAfterMs`) while a wait is in force; else returns. */
  check(): void
  /**
   * Holds calls off for `waitMs`, as `upstreamWaitMs` believes it (held to `maxWaitMs`; ignored when not a finite
   * non-negative number or beyond a year). A shorter wait never shortens a longer one already in force.
   */
  hold(waitMs: unknown): void
}

/**
 * A self-throttle for a provider whose upstream punishes calls made during a wait it asked for (GitHub's secondary
 * limits, Stack Exchange's `backoff`): after `hold`, `check` refuses calls without a request until the wait has
 * passed. Per provider instance, in memory.
 */
export function createSelfThrottle(options: SelfThrottleOptions): SelfThrottle {
  const { provider, code, reason, maxWaitMs = DEFAULT_MAX_KEY_REST_MS, clock = Date.now } = options
  let heldUntil = 0
  return {
    check() {
      const waitMs = heldUntil - clock()
      if (waitMs > 0)
        throw new ProviderError(`${provider} ${reason}; retry after ${Math.ceil(waitMs / 1000)}s`, {
          kind: 'rate_limited',
          provider,
          code,
          retryAfterMs: waitMs,
        })
    },
    hold(waitMs) {
      const boundedMs = upstreamWaitMs(waitMs, maxWaitMs)
      if (boundedMs !== undefined && boundedMs > 0) heldUntil = Math.max(heldUntil, clock() + boundedMs)
    },
  }
}
