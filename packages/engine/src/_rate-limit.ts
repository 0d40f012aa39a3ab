import { ProviderError } from '@search-layer/core'
import { timerMs } from '@search-layer/core/http'

/** The code of a call refused before it was sent because its pace would have outlasted the deadline. */
export const PACE_DEADLINE = 'pace_deadline'

export interface RateLimit {
  /** Sustained requests per second. */
  perSecond: number
  /** Requests allowed at once after an idle period. */
  burst: number
  /** Most calls in flight at the same time. */
  maxConcurrent: number
}

/**
 * A token bucket plus a concurrency cap. Callers wait in FIFO order instead of failing;
 * a caller whose wait would pass its deadline is refused with a `timeout` error. The vendor's own limits can
 * change the pace (`adapt`) and hold every call until a window resets (`pauseUntil`).
 */
export class RateLimiter {
  private tokens: number
  private lastRefill: number
  private active = 0
  private readonly waiters: {
    resolve: () => void
    reject: (e: Error) => void
    /** Takes the waiter out of the queue and rejects it as outlasting its deadline. */
    refuse: () => void
    deadlineAt?: number
    timer?: NodeJS.Timeout
    unlisten?: () => void
  }[] = []
  private pumpTimer: NodeJS.Timeout | undefined
  private pausedUntil = 0
  private limit: RateLimit

  constructor(
    readonly provider: string,
    limit: RateLimit,
    private readonly now: () => number = Date.now,
  ) {
    this.limit = { ...limit }
    this.tokens = limit.burst
    this.lastRefill = now()
  }

  /** The limit in force now. */
  current(): RateLimit {
    return { ...this.limit }
  }

  /** Changes the pace (e.g. to what the vendor says this key allows); calls already waiting get the new pace. */
  adapt(limit: Partial<RateLimit>): void {
    this.refill()
    this.limit = { ...this.limit, ...limit }
    this.tokens = Math.min(this.tokens, this.limit.burst)
    this.restartPump()
  }

  /** Starts no call before `at` (epoch ms): the vendor's window is used up until then. */
  pauseUntil(at: number): void {
    if (!(at > this.pausedUntil)) return
    this.pausedUntil = at
    this.restartPump()
  }

  /** Refuses at once every waiting call whose deadline comes before the pause ends, rather than at its deadline. */
  refuseOutlasted(): void {
    for (const waiter of [...this.waiters])
      if (waiter.deadlineAt !== undefined && waiter.deadlineAt <= this.pausedUntil) waiter.refuse()
  }

  /** Epoch ms until which no call starts, when paused. */
  pausedTill(): number | undefined {
    return this.pausedUntil > this.now() ? this.pausedUntil : undefined
  }

  /** Rejects every call still waiting with `error` (their key rests: they can go to another key). */
  evictWaiters(error: Error): void {
    for (const waiter of this.waiters.splice(0)) {
      if (waiter.timer) clearTimeout(waiter.timer)
      waiter.unlisten?.()
      waiter.reject(error)
    }
  }

  /**
   * How many calls asked for now would start within `ms`: the tokens in the bucket plus those its pace adds by then,
   * none while a pause outlasts it, less the calls already waiting.
   */
  startsWithin(ms: number): number {
    this.refill()
    if (this.pausedUntil > this.now() + ms) return 0
    const tokens =
      this.tokens + (Math.max(0, ms - Math.max(0, this.pausedUntil - this.now())) / 1000) * this.limit.perSecond
    return Math.max(0, Math.floor(tokens) - this.waiters.length)
  }

  /** True when a call could start at once. */
  ready(): boolean {
    this.refill()
    return this.pausedUntil <= this.now() && this.tokens >= 1 && this.active < this.limit.maxConcurrent
  }

  private restartPump(): void {
    if (this.pumpTimer) clearTimeout(this.pumpTimer)
    this.pumpTimer = undefined
    this.schedule()
  }

  /** Waits for a slot; call the returned function when the call has finished. */
  async acquire(options: { deadlineAt?: number; signal?: AbortSignal } = {}): Promise<() => void> {
    if (this.waiters.length === 0 && this.tryTake()) return this.releaser()
    // A pause that outlasts the deadline (a vendor's window reset, its Retry-After): waiting for it is time lost.
    if (options.deadlineAt !== undefined && this.pausedUntil >= options.deadlineAt) throw this.outlasted()
    await new Promise<void>((resolve, reject) => {
      const refuse = () => {
        const i = this.waiters.indexOf(waiter)
        if (i >= 0) this.waiters.splice(i, 1)
        if (waiter.timer) clearTimeout(waiter.timer)
        waiter.unlisten?.()
        reject(this.outlasted())
      }
      const waiter: (typeof this.waiters)[number] = { resolve, reject, refuse, deadlineAt: options.deadlineAt }
      if (options.deadlineAt !== undefined) waiter.timer = setTimeout(refuse, timerMs(options.deadlineAt - this.now()))
      const signal = options.signal
      if (signal) {
        signal.addEventListener('abort', refuse, { once: true })
        // A waiter that gets its slot must stop listening: the search's signal is shared by all its calls and
        // outlives this wait, so a listener left behind per queued call adds up (and trips Node's leak warning).
        waiter.unlisten = () => signal.removeEventListener('abort', refuse)
      }
      this.waiters.push(waiter)
      this.schedule()
    })
    return this.releaser()
  }

  private outlasted(): ProviderError {
    return new ProviderError(`${this.provider} call not started: its rate limit queue outlasted the deadline`, {
      kind: 'timeout',
      provider: this.provider,
      // The call never went out: nothing is known about the key (the pool's circuit counts no failure).
      code: PACE_DEADLINE,
      retryable: false,
    })
  }

  private releaser(): () => void {
    let released = false
    return () => {
      if (released) return
      released = true
      this.active--
      this.schedule()
    }
  }

  private refill(): void {
    const t = this.now()
    this.tokens = Math.min(this.limit.burst, this.tokens + ((t - this.lastRefill) / 1000) * this.limit.perSecond)
    this.lastRefill = t
  }

  private tryTake(): boolean {
    this.refill()
    if (this.pausedUntil > this.now()) return false
    if (this.tokens < 1 || this.active >= this.limit.maxConcurrent) return false
    this.tokens -= 1
    this.active++
    return true
  }

  private schedule(): void {
    while (this.waiters.length > 0 && this.tryTake()) {
      const waiter = this.waiters.shift()!
      if (waiter.timer) clearTimeout(waiter.timer)
      waiter.unlisten?.()
      waiter.resolve()
    }
    if (this.waiters.length === 0 || this.pumpTimer || this.active >= this.limit.maxConcurrent) return
    const pausedMs = this.pausedUntil - this.now()
    const waitMs = Math.max(1, pausedMs, Math.ceil(((1 - this.tokens) / this.limit.perSecond) * 1000))
    this.pumpTimer = setTimeout(() => {
      this.pumpTimer = undefined
      this.schedule()
    }, timerMs(waitMs))
    this.pumpTimer.unref?.()
  }
}
