import { setTimeout as sleep } from 'node:timers/promises'
import {
  type ConfigReading,
  DEFAULT_MAX_KEY_REST_MS,
  type Env,
  type PaceStore,
  type ProviderContext,
  type ProviderDefinition,
  ProviderError,
  type ProviderErrorKind,
  type RateLimitInfo,
  type RateLimitReading,
  type UpstreamResponseMeta,
  apiKeyId,
  apiKeyLabel,
  isProviderError,
  readRateLimitHeaders,
  timerMs,
  unusableWaitHeaders,
  type VendorLimits,
  resolveServiceConfig,
} from '@search-layer/core'
import { CircuitBreaker, type CircuitOptions, type CircuitState, type CircuitTicket } from './_circuit.js'
import { PACE_DEADLINE, type RateLimit, RateLimiter } from './_rate-limit.js'
import type { KeyState, KeyStateStore, LearnedLimits } from './key-state.js'
import { checkedKeyState, ignoredWaitWarning, readingFromAnswer } from './_wait-checks.js'

/** One key of a provider's pool, as status pages show it: named by label and hash, never by the key. */
export interface KeyStatus {
  /** `key #2 (…a1b2)`, or `no key` for a provider that needs none. */
  label: string
  /** The key's hash (`apiKeyId`), under which its state is stored. */
  id: string
  resting: boolean
  /** ISO time the key is tried again, while it rests. */
  restingUntil?: string
  lastError?: { kind: ProviderErrorKind; message: string }
  /** The pace calls are held to now; `learned` when it comes from the vendor's headers. Null: rate limiting is off. */
  pace: { perSecond: number; burst: number; learned: boolean } | null
  /** What the vendor said last (ISO times). */
  limits?: {
    remaining?: number
    resetsAt?: string
    quotaLimit?: number
    quotaRemaining?: number
    quotaResetsAt?: string
    learnedAt: string
  }
  /** A monthly quota near or at its end. */
  warning?: string
}

/** A provider's answer may state limits in its body (Stack Exchange `quota_remaining`, `backoff`). */
export interface AnswerLimits {
  rateLimit?: RateLimitInfo | undefined
}

/** What the pool hands the provider call: the key, the header observer, and whether to retry a rate limit in place. */
export type PoolCallContext = Pick<ProviderContext, 'apiKey' | 'onResponse' | 'retryRateLimited'>

/** One call as the pool runs it: its deadline and signal, the config read, and where a search's warnings go. */
export interface PoolCall {
  deadlineAt: number
  signal: AbortSignal
  reading?: ConfigReading
  /** Told once per call when the vendor sent a wait that was ignored (not a number, negative, over a year). */
  warn?: (message: string) => void
}

export interface KeyPoolOptions {
  definition: ProviderDefinition
  /** The pace before anything is learned; undefined when rate limiting is off. */
  rateLimit: RateLimit | undefined
  circuit: CircuitOptions
  store: KeyStateStore
  env: Env
  now: () => number
  /** Shared request slots for calls made with no key (the server's is Redis); the local bucket alone when absent. */
  pace?: PaceStore
}

interface KeySlot {
  /** Undefined: the provider resolves its own (keyless, or replaying cassettes without a key). */
  key: string | undefined
  id: string
  label: string
  /** Where the key stands in the configured list (0-based): its label says so. */
  index: number
  circuit: CircuitBreaker
  limiter: RateLimiter | undefined
  limits?: LearnedLimits
  /** Something worth storing changed during the call. */
  dirty: boolean
}

// Answers about the key itself: another key may well succeed where this one was refused.
const KEY_KINDS: ReadonlySet<ProviderErrorKind> = new Set(['auth', 'quota', 'rate_limited'])
// A rejected key, or a used-up quota whose reset the vendor did not say, rests this long.
const KEY_REST_MS = 60 * 60_000
// The slowest pace a vendor's word is taken for: one call a minute (a limit of 1 in the longest short window). A
// slower one (a limit of 1e-300 in a header) would space calls by ages, past any timer and any deadline.
const MIN_VENDOR_PER_SECOND = 1 / 60
// A monthly quota with this share or less left is worth a warning.
const QUOTA_WARN_SHARE = 0.1
const NO_KEY = 'none'

const labelOf = (key: string | undefined, index: number) => (key === undefined ? 'no key' : apiKeyLabel(index, key))

const iso = (ms: number) => new Date(ms).toISOString()

/** A call waiting for a key that has since started to rest or wait out its vendor's window: it takes another key. */
class KeyUnavailable extends Error {
  override readonly name = 'KeyUnavailable'
}
const count = (n: number) => n.toLocaleString('en-US')

/**
 * A provider's keys (`BRAVE_API_KEY=key1,key2`), each with its own circuit and pace. Calls go round the keys that
 * are not resting; a key refused for `auth`, `quota` or `rate_limited` rests on its own while the call is retried
 * at once with the next key (one retry, within the deadline). Each key's pace follows the vendor's rate-limit
 * headers (a paid plan's higher rate, a used-up window's reset, `Retry-After`); what is learned and each key's rest
 * go to the `KeyStateStore` under the key's hash, and are read back before each call, so another run or another
 * server instance starts from them.
 */
export class KeyPool {
  private slots: KeySlot[] = []
  // By the key itself: a search re-reads the configured keys, and hashing each again for its id costs more than the
  // rest of the read (~20 µs per search for four providers).
  private readonly known = new Map<string | undefined, KeySlot>()
  private next = 0
  private refreshing: Promise<void> | undefined
  /** The config reading the keys were last read for (`refresh`). */
  private readFor: ConfigReading | undefined

  constructor(private readonly options: KeyPoolOptions) {}

  private get name(): string {
    return this.options.definition.id
  }

  /**
   * Re-reads the keys configured now and what the store knows about each. Calls that start while a read is under way
   * share it: a search starts its calls to one provider together, and one read (config file check, a store round trip
   * per key) serves them all instead of one each.
   */
  refresh(reading?: ConfigReading): Promise<void> {
    // A search reads its pools once (when it checks who is available), not again for each call it makes.
    if (reading && reading === this.readFor) return this.refreshing ?? Promise.resolve()
    this.refreshing ??= this.readKeys(reading).finally(() => {
      this.refreshing = undefined
    })
    return this.refreshing
  }

  private async readKeys(reading: ConfigReading | undefined): Promise<void> {
    this.readFor = reading
    this.slots = this.configuredKeys(reading).map((key, index) => this.slotFor(key, index))
    await Promise.all(this.slots.map((slot) => this.load(slot)))
  }

  /** The provider as a whole: open (resting) only when every key rests. */
  state(): CircuitState {
    const states = this.slots.map((slot) => slot.circuit.state())
    const usable = states.find((s) => !s.open)
    if (usable || states.length === 0) return usable ?? { open: false, phase: 'closed', consecutiveFailures: 0 }
    const soonest = states.reduce((a, b) => ((a.until ?? 0) <= (b.until ?? 0) ? a : b))
    return soonest
  }

  isOpen(): boolean {
    return this.state().open
  }

  /** Runs one provider call on the next usable key; rejects with the call's `ProviderError` (its key named by label). */
  async call<T extends AnswerLimits>(ctx: PoolCall, run: (call: PoolCallContext) => Promise<T>): Promise<T> {
    await this.refresh(ctx.reading)
    const failed = new Set<KeySlot>()
    const moved = new Set<KeySlot>()
    for (;;) {
      // A key this call was moved off is taken again only when no other is left.
      const slot = this.pick(new Set([...failed, ...moved])) ?? this.pick(failed)
      if (!slot) throw this.restingError()
      try {
        return await this.callWith(slot, ctx, run)
      } catch (error) {
        if (error instanceof KeyUnavailable) {
          moved.add(slot)
          continue
        }
        failed.add(slot)
        const retryWithAnother =
          failed.size === 1 &&
          isProviderError(error) &&
          KEY_KINDS.has(error.kind) &&
          !ctx.signal.aborted &&
          this.options.now() < ctx.deadlineAt &&
          this.pick(failed, { peek: true }) !== undefined
        if (!retryWithAnother) throw this.named(slot, error)
      } finally {
        await this.save(slot)
      }
    }
  }

  /** Each key's state, read fresh from the store. */
  async status(): Promise<KeyStatus[]> {
    await this.refresh()
    return this.slots.map((slot) => this.describe(slot))
  }

  /**
   * Calls the pace lets start at once over all keys (its burst per key). With the engine's pacing off the
   * definition's own pace still counts: a keyless client such as DuckDuckGo's paces itself regardless.
   */
  callsAtOnce(): number {
    const { burst } = this.options.rateLimit ?? this.options.definition.rateLimit
    return Math.max(1, Math.floor(burst)) * this.slots.length
  }

  /** Monthly quotas near or at their end, one sentence per key. */
  warnings(): string[] {
    return this.slots.flatMap((slot) => {
      const warning = this.quotaWarning(slot)
      return warning ? [`${this.name} ${slot.label}: ${warning}`] : []
    })
  }

  private configuredKeys(reading: ConfigReading | undefined): (string | undefined)[] {
    let keys: string[] | undefined
    try {
      keys = resolveServiceConfig(this.options.definition, {
        env: this.options.env,
        ...(reading && { reading }),
      }).apiKeys
    } catch {
      // A broken setting is reported by the engine's config checks; the provider then resolves (and refuses) itself.
    }
    return keys && keys.length > 0 ? keys : [undefined]
  }

  private slotFor(key: string | undefined, index: number): KeySlot {
    const existing = this.known.get(key)
    if (existing) {
      if (existing.index !== index) Object.assign(existing, { index, label: labelOf(key, index) })
      return existing
    }
    const { rateLimit, circuit, now } = this.options
    const slot: KeySlot = {
      key,
      id: key === undefined ? NO_KEY : apiKeyId(key),
      label: labelOf(key, index),
      index,
      circuit: new CircuitBreaker(circuit, now),
      limiter: rateLimit ? new RateLimiter(this.name, rateLimit, now) : undefined,
      dirty: false,
    }
    this.known.set(key, slot)
    return slot
  }

  private async load(slot: KeySlot): Promise<void> {
    let state: KeyState | undefined
    try {
      state = await this.options.store.get(this.name, slot.id)
    } catch {
      return // A store that cannot be read leaves the key as this process knows it.
    }
    if (!state) return
    const checked = checkedKeyState(state, this.options.now(), this.maxRestMs())
    state = checked.state
    if (state.limits && state.limits.learnedAt > (slot.limits?.learnedAt ?? -1)) {
      slot.limits = state.limits
      this.applyPace(slot)
    }
    if (state.restUntil !== undefined)
      slot.circuit.restUntil(state.restUntil, state.lastError ?? { kind: 'upstream', message: 'resting' })
    // Written back bounded at once: a rest read from a tampered file must not start its hour over at every read.
    if (checked.changed) {
      slot.dirty = true
      await this.save(slot)
    }
  }

  private async save(slot: KeySlot): Promise<void> {
    if (!slot.dirty) return
    slot.dirty = false
    const circuit = slot.circuit.state()
    const state: KeyState = {
      ...(slot.limits && { limits: slot.limits }),
      ...(circuit.open && circuit.until !== undefined && { restUntil: circuit.until }),
      ...(circuit.lastError && { lastError: circuit.lastError }),
    }
    try {
      await this.options.store.set(this.name, slot.id, state)
    } catch {
      // Not remembering a limit costs a slower next run, not this one.
    }
  }

  // Round-robin from the key after the last one used: first a key that can start now, then any that is not resting.
  private pick(tried: ReadonlySet<KeySlot>, { peek = false } = {}): KeySlot | undefined {
    const order = this.slots.map((_, i) => this.slots[(this.next + i) % this.slots.length]!)
    const candidates = order.filter((slot) => !tried.has(slot) && !slot.circuit.isOpen())
    const chosen =
      candidates.find((slot) => slot.limiter?.ready() ?? true) ??
      candidates.find((slot) => slot.limiter?.pausedTill() === undefined) ??
      candidates[0]
    if (chosen && !peek) this.next = (this.slots.indexOf(chosen) + 1) % this.slots.length
    return chosen
  }

  private async callWith<T extends AnswerLimits>(
    slot: KeySlot,
    ctx: PoolCall,
    run: (call: PoolCallContext) => Promise<T>,
  ): Promise<T> {
    const ignored = new Set<string>()
    const ticket = await admitCall(this.name, slot.circuit, ctx.signal)
    let release: (() => void) | undefined
    try {
      release = await slot.limiter?.acquire({ deadlineAt: ctx.deadlineAt, signal: ctx.signal })
      await this.takeSharedSlot(slot, ctx)
      const sentAt = this.options.now()
      let headersTaught = false
      const result = await run({
        ...(slot.key !== undefined && { apiKey: slot.key }),
        onResponse: (meta) => {
          if (this.learn(slot, meta, sentAt, ignored)) headersTaught = true
        },
        // With another key to take over, waiting out this key's rate limit is time lost.
        ...(this.slots.length > 1 && { retryRateLimited: false }),
      })
      // Headers are read against the send time (see `windowResetAt`); a body's relative times only where they are silent.
      if (!headersTaught && result.rateLimit) this.learnFromAnswer(slot, result.rateLimit, ignored)
      slot.circuit.success(ticket)
      return result
    } catch (caught) {
      if (isProviderError(caught) && caught.retryAfterIgnored) ignored.add('its error’s wait')
      // A call cut off by the deadline, or moved to another key before it started, proves nothing either way.
      if (!ctx.signal.aborted && !(caught instanceof KeyUnavailable)) this.fail(slot, ticket, caught)
      throw caught
    } finally {
      slot.circuit.abandon(ticket)
      release?.()
      if (ignored.size > 0) ctx.warn?.(ignoredWaitWarning(this.name, [...ignored]))
    }
  }

  private maxRestMs(): number {
    return this.options.circuit.maxRestMs ?? DEFAULT_MAX_KEY_REST_MS
  }

  // A keyless service's pace is one for every instance sharing the store: this process's bucket only sees its own
  // calls. Keyed calls need none: each key's limits are learned from its vendor and shared through the key state.
  private async takeSharedSlot(slot: KeySlot, ctx: { deadlineAt: number; signal: AbortSignal }): Promise<void> {
    const { pace, now } = this.options
    if (!pace || !slot.limiter || slot.key !== undefined) return
    const { perSecond, burst } = slot.limiter.current()
    const asked = now()
    const at = await pace.reserve(`keyless:${this.name}`, {
      intervalMs: 1000 / perSecond,
      burst,
      now: asked,
      notAfter: ctx.deadlineAt,
    })
    // A store that answers past the deadline anyway (any `PaceStore`, Redis holding anything) is refused the same.
    if (at === undefined || !(at < ctx.deadlineAt))
      throw new ProviderError(`${this.name} call skipped: its shared pace (${perSecond}/s) passes the deadline`, {
        kind: 'timeout',
        provider: this.name,
        code: PACE_DEADLINE,
        retryable: false,
      })
    // The slot comes from a shared store (Redis): held to a timer's range whatever it holds.
    if (at > asked) await sleep(timerMs(at - asked), undefined, { signal: ctx.signal })
  }

  private fail(slot: KeySlot, ticket: CircuitTicket, caught: unknown): void {
    const error = isProviderError(caught)
      ? caught
      : { kind: 'bad_response' as const, message: caught instanceof Error ? caught.message : String(caught) }
    if (isProviderError(caught)) this.learnFromError(slot, caught.limits)
    // The vendor refused the parameters we sent, or the call never went out (no shared slot before the deadline):
    // the service and the key are fine, so the circuit learns nothing.
    if (error.kind === 'bad_request' || (isProviderError(caught) && caught.code === PACE_DEADLINE)) return
    slot.circuit.failure(ticket, error)
    if (this.slots.length > 1 && KEY_KINDS.has(error.kind))
      slot.circuit.restUntil(this.options.now() + this.restMs(slot, error), error)
    if (slot.circuit.isOpen()) {
      slot.dirty = true
      this.moveWaiters(slot)
    }
  }

  // Calls queued behind a key that now rests or waits out its window go to the other keys instead; with no other
  // key, those the wait would outlast fail now, not at their deadline.
  private moveWaiters(slot: KeySlot): void {
    if (this.slots.length > 1) slot.limiter?.evictWaiters(new KeyUnavailable(`${this.name} ${slot.label} is resting`))
    else slot.limiter?.refuseOutlasted()
  }

  private restMs(slot: KeySlot, error: { kind: ProviderErrorKind; retryAfterMs?: number }): number {
    const now = this.options.now()
    const limits = slot.limits
    if (error.kind === 'rate_limited') {
      const vendorAt = Math.max(limits?.retryAt ?? 0, limits?.remaining === 0 ? (limits.resetAt ?? 0) : 0)
      return error.retryAfterMs ?? (vendorAt > now ? vendorAt - now : this.options.circuit.cooldownMs)
    }
    if (error.kind === 'quota' && limits?.quotaResetAt !== undefined && limits.quotaResetAt > now)
      return limits.quotaResetAt - now
    return KEY_REST_MS
  }

  private learn(slot: KeySlot, meta: UpstreamResponseMeta, sentAt: number, ignored: Set<string>): boolean {
    const now = this.options.now()
    for (const name of unusableWaitHeaders(meta.headers, now)) ignored.add(name)
    const reading = readRateLimitHeaders(meta.headers, now)
    if (!reading) return false
    const resetAt = windowResetAt(reading, sentAt)
    this.remember(slot, { ...reading, ...(resetAt !== undefined && { resetAt }) })
    return true
  }

  // Limits stated in a body, relative to now (Stack Exchange's daily quota and `backoff`), learned like headers.
  private learnFromAnswer(slot: KeySlot, info: RateLimitInfo, ignored: Set<string>): void {
    const { reading, ignored: fields } = readingFromAnswer(info, this.options.now())
    for (const field of fields) ignored.add(field)
    if (Object.keys(reading).length > 0) this.remember(slot, reading)
  }

  // A 429 body can state the plan's limits where no header did (Brave's `meta`): pace by them from this call on.
  private learnFromError(slot: KeySlot, limits: VendorLimits | undefined): void {
    if (limits) this.remember(slot, limits)
  }

  // What the vendor said, from any of the three places it says it, kept for the key and applied at once.
  private remember(slot: KeySlot, limits: RateLimitReading | VendorLimits): void {
    slot.limits = { ...slot.limits, ...limits, learnedAt: this.options.now() }
    slot.dirty = true
    this.applyPace(slot)
  }

  // The vendor's word, applied: its per-second rate, a wait until a used-up window resets, a rest for a used-up quota.
  private applyPace(slot: KeySlot): void {
    const limits = slot.limits
    if (!limits) return
    const now = this.options.now()
    // A window's pause is a rest too: never longer than the longest one.
    const pauseUntil = (at: number) => slot.limiter?.pauseUntil(Math.min(at, now + this.maxRestMs()))
    if (slot.limiter) {
      if (limits.perSecond !== undefined && limits.perSecond >= MIN_VENDOR_PER_SECOND)
        slot.limiter.adapt({ perSecond: limits.perSecond, burst: Math.max(1, Math.floor(limits.perSecond)) })
      if (limits.remaining === 0 && limits.resetAt !== undefined && limits.resetAt > now) pauseUntil(limits.resetAt)
      if (limits.retryAt !== undefined && limits.retryAt > now) pauseUntil(limits.retryAt)
      if (slot.limiter.pausedTill() !== undefined) this.moveWaiters(slot)
    }
    if (limits.quotaRemaining === 0) {
      const until =
        limits.quotaResetAt !== undefined && limits.quotaResetAt > now ? limits.quotaResetAt : now + KEY_REST_MS
      slot.circuit.restUntil(until, { kind: 'quota', message: `${this.name} ${slot.label}: monthly quota used up` })
    }
  }

  private quotaWarning(slot: KeySlot): string | undefined {
    const limits = slot.limits
    if (limits?.quotaLimit === undefined || limits.quotaRemaining === undefined || limits.quotaLimit <= 0)
      return undefined
    if (limits.quotaRemaining > limits.quotaLimit * QUOTA_WARN_SHARE) return undefined
    const used = limits.quotaLimit - limits.quotaRemaining
    const resets = limits.quotaResetAt !== undefined ? `; it resets at ${iso(limits.quotaResetAt)}` : ''
    return limits.quotaRemaining === 0
      ? `monthly quota of ${count(limits.quotaLimit)} requests used up${resets}`
      : `${count(used)} of ${count(limits.quotaLimit)} monthly requests used, ${count(limits.quotaRemaining)} left${resets}`
  }

  private describe(slot: KeySlot): KeyStatus {
    const circuit = slot.circuit.state()
    const limits = slot.limits
    const pace = slot.limiter?.current()
    const warning = this.quotaWarning(slot)
    return {
      label: slot.label,
      id: slot.id,
      resting: circuit.open,
      ...(circuit.open && circuit.until !== undefined && { restingUntil: iso(circuit.until) }),
      ...(circuit.lastError && { lastError: circuit.lastError }),
      pace: pace ? { perSecond: pace.perSecond, burst: pace.burst, learned: limits?.perSecond !== undefined } : null,
      ...(limits && {
        limits: {
          ...(limits.remaining !== undefined && { remaining: limits.remaining }),
          ...(limits.resetAt !== undefined && { resetsAt: iso(limits.resetAt) }),
          ...(limits.quotaLimit !== undefined && { quotaLimit: limits.quotaLimit }),
          ...(limits.quotaRemaining !== undefined && { quotaRemaining: limits.quotaRemaining }),
          ...(limits.quotaResetAt !== undefined && { quotaResetsAt: iso(limits.quotaResetAt) }),
          learnedAt: iso(limits.learnedAt),
        },
      }),
      ...(warning && { warning }),
    }
  }

  private restingError(): ProviderError {
    const state = this.state()
    const until = iso(state.until ?? this.options.now())
    const message =
      this.slots.length > 1
        ? `${this.name}: every key is resting (${this.slots
            .map((s) => `${s.label}: ${s.circuit.state().lastError?.kind ?? 'resting'}`)
            .join(', ')}); the first is retried at ${until}`
        : `${this.name} is resting after repeated failures; it will be retried at ${until}`
    return new ProviderError(message, {
      kind: state.lastError?.kind ?? 'upstream',
      provider: this.name,
      retryable: true,
    })
  }

  // With several keys, the error says which one failed (by label) so the user knows which key to check.
  private named(slot: KeySlot, error: unknown): unknown {
    if (this.slots.length < 2 || !isProviderError(error)) return error
    return new ProviderError(`${slot.label}: ${error.message}`, {
      kind: error.kind,
      provider: error.provider ?? this.name,
      ...(error.status !== undefined && { status: error.status }),
      retryable: error.retryable,
      ...(error.retryAfterMs !== undefined && { retryAfterMs: error.retryAfterMs }),
      ...(error.code !== undefined && { code: error.code }),
      cause: error,
      secrets: [slot.key],
    })
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

/**
 * Waits until a key's circuit lets this call start: at once when closed, after the in-flight probe when half-open.
 * Throws a `ProviderError` while it rests, or `timeout` when the search ends first.
 */
async function admitCall(name: string, circuit: CircuitBreaker, signal: AbortSignal): Promise<CircuitTicket> {
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
