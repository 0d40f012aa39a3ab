import type { ProviderErrorKind } from '@search-layer/core'

export interface CircuitOptions {
  /** Consecutive failures that open the circuit. */
  failureThreshold: number
  /** First cooldown; doubles on each re-open, up to `maxCooldownMs`. */
  cooldownMs: number
  maxCooldownMs: number
}

export interface CircuitState {
  open: boolean
  /** Epoch ms when calls may be tried again. */
  until?: number
  consecutiveFailures: number
  lastError?: { kind: ProviderErrorKind; message: string }
}

/**
 * Per-provider circuit breaker: a provider that keeps failing is rested instead of called.
 * Rate limits and exhausted quotas open it at once, for as long as the vendor asked (or an hour for quota).
 */
export class CircuitBreaker {
  private failures = 0
  private openUntil = 0
  private nextCooldown: number
  private lastError: CircuitState['lastError']

  constructor(
    private readonly options: CircuitOptions,
    private readonly now: () => number = Date.now,
  ) {
    this.nextCooldown = options.cooldownMs
  }

  /** True when calls should be skipped right now. */
  isOpen(): boolean {
    return this.now() < this.openUntil
  }

  state(): CircuitState {
    const open = this.isOpen()
    return {
      open,
      ...(open && { until: this.openUntil }),
      consecutiveFailures: this.failures,
      ...(this.lastError && { lastError: this.lastError }),
    }
  }

  success(): void {
    this.failures = 0
    this.nextCooldown = this.options.cooldownMs
    this.openUntil = 0
  }

  failure(error: { kind: ProviderErrorKind; message: string; retryAfterMs?: number }): void {
    this.failures++
    this.lastError = { kind: error.kind, message: error.message }
    if (error.kind === 'rate_limited' && error.retryAfterMs) {
      this.openUntil = Math.max(this.openUntil, this.now() + error.retryAfterMs)
      return
    }
    if (error.kind === 'quota') {
      this.openUntil = this.now() + 60 * 60_000
      return
    }
    if (this.failures >= this.options.failureThreshold) {
      this.openUntil = this.now() + this.nextCooldown
      this.nextCooldown = Math.min(this.options.maxCooldownMs, this.nextCooldown * 2)
    }
  }
}
