import type { ProviderErrorKind } from '@search-layer/core'
import { DEFAULT_MAX_KEY_REST_MS } from '@search-layer/core/http'

export interface CircuitOptions {
  /** Consecutive failures that open the circuit. */
  failureThreshold: number
  /** First cooldown; doubles each time a half-open probe fails, up to `maxCooldownMs`. */
  cooldownMs: number
  maxCooldownMs: number
  /**
   * The longest rest on anyone's word (a vendor's `Retry-After`, a quota's reset, a stored rest): a vendor may ask
   * for days, and a key rested that long is a key lost. Default `DEFAULT_MAX_KEY_REST_MS` (one hour).
   */
  maxRestMs?: number
}

export interface CircuitState {
  open: boolean
  /** `half_open`: the cooldown is over and one probe call decides whether the circuit closes. */
  phase: 'closed' | 'open' | 'half_open'
  /** Epoch ms when calls may be tried again. */
  until?: number
  consecutiveFailures: number
  lastError?: { kind: ProviderErrorKind; message: string }
}

/** One admitted call; hand it back to `success`, `failure` or `abandon` when the call ends. */
export interface CircuitTicket {
  /** The opening count when the call started: a call from before the latest opening is stale. */
  readonly episode: number
  /** The single call allowed through a half-open circuit. */
  readonly probe: boolean
  settled: boolean
}

/** What `admit` decided for a call about to start. */
export type CircuitAdmission =
  | { type: 'call'; ticket: CircuitTicket }
  /** A probe is in flight: try again once it settles. */
  | { type: 'wait'; settled: Promise<void> }
  | { type: 'rest'; until: number }

const QUOTA_REST_MS = 60 * 60_000

/**
 * Per-provider circuit breaker: a provider that keeps failing is rested instead of called.
 *
 * One opening per episode: every call takes a ticket when it starts, and only calls that started in the current
 * closed episode count towards opening it. Calls still in flight when it opens end as stale and neither re-open
 * nor extend it, so a burst of concurrent failures rests the provider for the first cooldown, not for a doubling
 * per call. Once the cooldown is over the circuit is half-open: exactly one probe goes through (other calls wait
 * for it); its success closes the circuit at once, its failure re-opens it for twice the previous cooldown.
 * Rate limits and exhausted quotas open it at once, for as long as the vendor asked (or an hour for quota).
 */
export class CircuitBreaker {
  private failures = 0
  private episode = 0
  private opened = false
  private openUntil = 0
  private cooldown: number
  /** The current rest is the vendor's (Retry-After, quota), not a cooldown of ours. */
  private restedByVendor = false
  private lastError: CircuitState['lastError']
  private probe: { ticket: CircuitTicket; settled: Promise<void>; wake: () => void } | undefined

  constructor(
    private readonly options: CircuitOptions,
    private readonly now: () => number = Date.now,
  ) {
    this.cooldown = options.cooldownMs
  }

  /** True when calls should be skipped right now (open and still cooling down). */
  isOpen(): boolean {
    return this.opened && this.now() < this.openUntil
  }

  state(): CircuitState {
    const open = this.isOpen()
    return {
      open,
      phase: open ? 'open' : this.opened ? 'half_open' : 'closed',
      ...(open && { until: this.openUntil }),
      consecutiveFailures: this.failures,
      ...(this.lastError && { lastError: this.lastError }),
    }
  }

  /** Decides whether a call may start now; an admitted call must end in `success`, `failure` or `abandon`. */
  admit(): CircuitAdmission {
    if (!this.opened) return { type: 'call', ticket: { episode: this.episode, probe: false, settled: false } }
    if (this.now() < this.openUntil) return { type: 'rest', until: this.openUntil }
    if (this.probe) return { type: 'wait', settled: this.probe.settled }
    const ticket: CircuitTicket = { episode: this.episode, probe: true, settled: false }
    let wake: () => void = () => {}
    const settled = new Promise<void>((resolve) => {
      wake = resolve
    })
    this.probe = { ticket, settled, wake }
    return { type: 'call', ticket }
  }

  success(ticket: CircuitTicket): void {
    if (!this.settle(ticket)) return
    if (ticket.probe) {
      // A probe that outlived a newer opening (restUntil) proves nothing about it.
      if (ticket.episode !== this.episode) return
      this.opened = false
      this.openUntil = 0
      this.failures = 0
      this.cooldown = this.options.cooldownMs
      this.endProbe()
      return
    }
    if (!this.isStale(ticket)) this.failures = 0
  }

  failure(ticket: CircuitTicket, error: { kind: ProviderErrorKind; message: string; retryAfterMs?: number }): void {
    if (!this.settle(ticket) || this.isStale(ticket)) return
    this.lastError = { kind: error.kind, message: error.message }
    this.failures++
    if (ticket.probe) {
      // The cooldown doubles only here: the provider was rested and still fails.
      const vendorRest = this.vendorRestMs(error)
      if (vendorRest === undefined && !this.restedByVendor)
        this.cooldown = Math.min(this.options.maxCooldownMs, this.cooldown * 2)
      this.restedByVendor = vendorRest !== undefined
      this.openUntil = this.now() + (vendorRest ?? this.cooldown)
      this.endProbe()
      return
    }
    const vendorRest = this.vendorRestMs(error)
    if (vendorRest !== undefined) this.open(vendorRest, true)
    else if (this.failures >= this.options.failureThreshold) this.open(this.options.cooldownMs, false)
  }

  /**
   * Rests the circuit until `until` (epoch ms) on the vendor's word or another instance's: a key rejected while others
   * can carry on, or an opening shared through Redis. Never shortens a longer rest; calls in flight become stale.
   */
  restUntil(until: number, error: { kind: ProviderErrorKind; message: string }): void {
    const bounded = Math.min(until, this.now() + this.maxRestMs())
    if (!(bounded > this.now()) || (this.isOpen() && this.openUntil >= bounded)) return
    this.lastError = { kind: error.kind, message: error.message }
    this.open(bounded - this.now(), true)
    this.endProbe()
  }

  /** The call ended without an answer either way (the search was cancelled): it proves nothing. */
  abandon(ticket: CircuitTicket): void {
    if (this.settle(ticket) && ticket.probe) this.endProbe()
  }

  private open(restMs: number, byVendor: boolean): void {
    this.episode++
    this.opened = true
    this.cooldown = this.options.cooldownMs
    this.restedByVendor = byVendor
    this.openUntil = this.now() + restMs
  }

  private vendorRestMs(error: { kind: ProviderErrorKind; retryAfterMs?: number }): number | undefined {
    if (error.kind === 'rate_limited' && error.retryAfterMs && error.retryAfterMs > 0)
      return Math.min(error.retryAfterMs, this.maxRestMs())
    if (error.kind === 'quota') return Math.min(QUOTA_REST_MS, this.maxRestMs())
    return undefined
  }

  private maxRestMs(): number {
    return this.options.maxRestMs ?? DEFAULT_MAX_KEY_REST_MS
  }

  // A call that started before the latest opening says nothing about the provider since.
  private isStale(ticket: CircuitTicket): boolean {
    return ticket.episode !== this.episode || (this.opened && !ticket.probe)
  }

  private settle(ticket: CircuitTicket): boolean {
    if (ticket.settled) return false
    ticket.settled = true
    return true
  }

  private endProbe(): void {
    const probe = this.probe
    this.probe = undefined
    probe?.wake()
  }
}
