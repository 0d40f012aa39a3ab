import { setTimeout as sleep } from 'node:timers/promises'
import {
  type Env,
  type ProviderContext,
  type ResolvedProviderDefinition,
  ProviderError,
  type RateLimitInfo,
  isProviderError,
} from '@search-layer/core'
import { type ConfigReading, apiKeyId, apiKeyLabel, resolveServiceConfig } from '@search-layer/core/config'
import { DEFAULT_MAX_KEY_REST_MS, type PaceStore, timerMs } from '@search-layer/core/http'
import { CircuitBreaker, type CircuitOptions, type CircuitState } from './_circuit.js'
import { learnFromAnswer, learnFromHeaders } from './_key-limits.js'
import { loadKeyState, saveKeyState } from './_key-persist.js'
import { CallCutOff, type LatencySummary, isTimed, summarizeLatency, withSample } from './_latency.js'
import { admitCall, poolState, recordFailure, restingError } from './_key-rest.js'
import { KEY_KINDS, type KeySlot, KeyUnavailable, type PoolScope } from './_key-slot.js'
import { type KeyStatus, describeKey, quotaWarning } from './_key-status.js'
import { PACE_DEADLINE, type RateLimit, RateLimiter } from './_rate-limit.js'
import type { KeyStateStore } from './key-state-store.js'
import { ignoredWaitWarning } from './_wait-checks.js'

export type { KeyStatus } from './_key-status.js'

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
  definition: ResolvedProviderDefinition
  /** The pace before anything is learned; undefined when rate limiting is off. */
  rateLimit: RateLimit | undefined
  circuit: CircuitOptions
  store: KeyStateStore
  env: Env
  now: () => number
  /** Shared request slots for calls made with no key (the server's is Redis); the local bucket alone when absent. */
  pace?: PaceStore
}

const NO_KEY = 'none'

const labelOf = (key: string | undefined, index: number) => (key === undefined ? 'no key' : apiKeyLabel(index, key))

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
  /** This pool as the limits, rest and store parts see it (`_key-slot.ts`). */
  private readonly scope: PoolScope

  constructor(private readonly options: KeyPoolOptions) {
    this.scope = {
      get name() {
        return options.definition.id
      },
      now: () => options.now(),
      maxRestMs: () => options.circuit.maxRestMs ?? DEFAULT_MAX_KEY_REST_MS,
      cooldownMs: () => options.circuit.cooldownMs,
      several: () => this.slots.length > 1,
    }
  }

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
    await Promise.all(this.slots.map((slot) => loadKeyState(this.scope, this.options.store, slot)))
  }

  /** The provider as a whole: open (resting) only when every key rests. */
  state(): CircuitState {
    return poolState(this.slots)
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
      if (!slot) throw restingError(this.scope, this.slots)
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
        await saveKeyState(this.scope, this.options.store, slot)
      }
    }
  }

  /** Each key's state, read fresh from the store. */
  async status(): Promise<KeyStatus[]> {
    await this.refresh()
    return this.slots.map((slot) => describeKey(slot))
  }

  /**
   * Calls the pace lets start at once over all keys (its burst per key). With the engine's pacing off the
   * definition's own pace still counts: a keyless client such as DuckDuckGo's paces itself regardless.
   */
  callsAtOnce(): number {
    const { burst } = this.options.rateLimit ?? this.options.definition.rateLimit
    return Math.max(1, Math.floor(burst)) * this.slots.length
  }

  /**
   * Calls asked for now that would start within `ms` over the keys not resting, at each key's learned pace
   * (unlimited with the engine's pacing off); at least one, so a search always asks the provider something.
   */
  callsWithin(ms: number): number {
    const usable = this.slots.filter((slot) => !slot.circuit.isOpen())
    if (usable.some((slot) => !slot.limiter)) return Number.POSITIVE_INFINITY
    return Math.max(
      1,
      usable.reduce((n, slot) => n + slot.limiter!.startsWithin(ms), 0),
    )
  }

  /** Some key not resting could start a call within `ms` at its pace (always, with the engine's pacing off). */
  hasCapacity(ms: number): boolean {
    return this.slots.some((slot) => !slot.circuit.isOpen() && (slot.limiter?.startsWithin(ms) ?? 1) >= 1)
  }

  /** How long this provider's calls took lately, over all its keys (undefined before any was timed). */
  latency(): LatencySummary | undefined {
    return summarizeLatency(this.slots.flatMap((slot) => slot.latency?.samples ?? []))
  }

  /** Its typical call (ms): the learned p50 once enough calls are timed, else its definition's `typicalLatencyMs`. */
  typicalMs(): number {
    const latency = this.latency()
    return isTimed(latency) ? latency.p50.ms : this.options.definition.typicalLatencyMs
  }

  /** Monthly quotas near or at their end, one sentence per key. */
  warnings(): string[] {
    return this.slots.flatMap((slot) => {
      const warning = quotaWarning(slot)
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
    let sentAt: number | undefined
    try {
      release = await slot.limiter?.acquire({ deadlineAt: ctx.deadlineAt, signal: ctx.signal })
      await this.takeSharedSlot(slot, ctx)
      sentAt = this.options.now()
      let headersTaught = false
      const result = await run({
        ...(slot.key !== undefined && { apiKey: slot.key }),
        onResponse: (meta) => {
          if (learnFromHeaders(this.scope, slot, meta, sentAt!, ignored)) headersTaught = true
        },
        // With another key to take over, waiting out this key's rate limit is time lost.
        ...(this.slots.length > 1 && { retryRateLimited: false }),
      })
      // Headers are read against the send time (see `windowResetAt`); a body's relative times only where they are silent.
      if (!headersTaught && result.rateLimit) learnFromAnswer(this.scope, slot, result.rateLimit, ignored)
      slot.circuit.success(ticket)
      this.time(slot, sentAt)
      return result
    } catch (caught) {
      // Only a call cut off while running says how long it takes (at least this long); a failure says nothing.
      const reason: unknown = ctx.signal.aborted ? ctx.signal.reason : undefined
      if (sentAt !== undefined && reason instanceof CallCutOff && reason.censors) this.time(slot, sentAt, true)
      if (isProviderError(caught) && caught.retryAfterIgnored) ignored.add('its error’s wait')
      // A call cut off by the deadline, or moved to another key before it started, proves nothing either way.
      if (!ctx.signal.aborted && !(caught instanceof KeyUnavailable)) recordFailure(this.scope, slot, ticket, caught)
      throw caught
    } finally {
      slot.circuit.abandon(ticket)
      release?.()
      if (ignored.size > 0) ctx.warn?.(ignoredWaitWarning(this.name, [...ignored]))
    }
  }

  private time(slot: KeySlot, sentAt: number, late = false): void {
    const now = this.options.now()
    slot.latency = withSample(
      slot.latency,
      { ms: Math.max(0, now - sentAt), ...(late && { late: true as const }) },
      now,
    )
    slot.dirty = true
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
