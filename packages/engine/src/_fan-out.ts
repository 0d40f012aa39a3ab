import { setMaxListeners } from 'node:events'
import {
  ProviderError,
  type ProviderName,
  type ProviderContext,
  type ProviderResponse,
  type RejectReason,
  type SearchResult,
  checkProviderResponse,
  isProviderError,
} from '@search-layer/core'
import type { ConfigReading } from '@search-layer/core/config'
import type { KeyPool, PoolCallContext } from './_key-pool.js'
import { CallCutOff } from './_latency.js'
import type { Roster } from './_roster.js'
import type { SearchProgress } from './response.js'
import type { SettleRule } from './_settle.js'
import type { StandInChoice } from './_stand-in.js'

/** One provider call's outcome, as the fan-out records it. */
export interface CallOutcome {
  provider: ProviderName
  query: string
  results?: SearchResult[]
  answer?: string
  error?: ProviderError
  ms: number
  cost?: { usd?: number; credits?: number }
  /** Results the provider returned that failed the engine's checks (`checkProviderResponse`), by reason. */
  rejected?: Partial<Record<RejectReason, number>>
}

/** Everything one search's fan-out uses: the plan it carries out and the layer's shared protections. */
export interface FanOutOptions {
  /** The queries every active provider is asked. */
  queries: readonly string[]
  /** Who takes part; a failed call's stand-in is activated here. */
  roster: Roster
  fallbacksOf: (name: ProviderName) => ProviderName[]
  /** On a failed call, a quicker stand-in than the next in order, the engines passed over for it with why. */
  quickerStandIn?: (failed: ProviderName) => Promise<StandInChoice | undefined>
  /** Epoch ms at which whatever has arrived is returned and every call still running is cancelled. */
  deadlineAt: number
  /** Aborted when nobody waits for this search any more: every call still running is cancelled at once. */
  signal?: AbortSignal
  /** Most calls this search may make, stand-ins included. */
  maxCalls: number
  /** Most queries one provider is asked (its first ones, the original query first); unlimited when undefined. */
  queriesFor?: (name: ProviderName) => number
  /** Each provider's keys, with their circuits and paces. */
  pools: ReadonlyMap<ProviderName, KeyPool>
  /** The config files as the search read them: each pool resolves its keys against this (once per search). */
  reading?: ConfigReading
  /** Asks one provider one query, with the key the pool picked. */
  ask: (name: ProviderName, query: string, signal: AbortSignal, call: CallContext) => Promise<ProviderResponse>
  /** Runs once a call has its slot, before it is made (monthly budgets count it here). */
  beforeCall: (name: ProviderName) => Promise<void>
  emit: (event: SearchProgress) => void
  /** After each answer, with every outcome so far (a stream re-ranks on it). */
  onAnswer?: (sofar: CallOutcome[]) => void
  /**
   * Once, when every call the search starts with has its request on the wire, or as soon as one call ends (a
   * provider that does not report its requests, a call held by its pace): work the answers will need can run then
   * without delaying any request.
   */
  onCallsSent?: () => void
  warn: (message: string) => void
  now: () => number
  /** When to stop waiting before every call ended (`settleRule`); undefined waits for all, up to the deadline. */
  settle?: SettleRule
  /**
   * What becomes of calls still running when the search settles: `cancel` (default) aborts them; `finish` lets
   * them run on to the deadline, their outcomes gathered in `FanOutResult.rest`.
   */
  lateCalls?: 'cancel' | 'finish'
}

/** What a provider is called with beside the query: the pool's key and hooks, and the fan-out's own. */
export type CallContext = PoolCallContext & Pick<ProviderContext, 'onRequestSent'>

/** A call still running when the search settled. */
interface LateCall {
  provider: ProviderName
  query: string
  /** Epoch ms it was launched. */
  startedAt: number
}

/** What the fan-out gathered by the time every call ended, the search settled, or the deadline came. */
export interface FanOutResult {
  outcomes: CallOutcome[]
  /** Calls started per provider, whether they answered or not. */
  launched: ReadonlyMap<ProviderName, number>
  /** Calls still running when the search settled (`settle`); none when it waited for all. */
  late: LateCall[]
  /** With `lateCalls: 'finish'` and late calls: every outcome once those calls ended or the deadline came. */
  rest?: Promise<FanOutResult>
}

/**
 * Starts every (query × active provider) call at once, each limited only by its provider's key pool (pace, circuit),
 * and waits for all of them, the search to settle (`settle`) or the deadline, whichever comes first. A failed call's
 * query goes to the provider's first stand-in that can take it. Never throws: failures are outcomes.
 */
export async function fanOut(options: FanOutOptions): Promise<FanOutResult> {
  const { queries, roster, deadlineAt, maxCalls, now } = options
  const controller = new AbortController()
  // Each call waiting in its provider's rate-limit queue listens on this signal until it gets its slot: up to
  // maxCallsPerRequest listeners at once is the design (above Node's default warning threshold of 10).
  setMaxListeners(Math.max(10, maxCalls + 4), controller.signal)
  const calls = callTracker(options, controller)
  for (const name of slowestFirst(roster.active.keys(), options.pools))
    for (const query of queries) calls.launch(name, query)
  calls.sent.expect(calls.running.size)
  // Nothing the rule waits for was launched (it is waited for in full).
  const rule = [...calls.running.values()].some((c) => options.settle?.awaited(c.provider)) ? options.settle : undefined
  if (rule) calls.watchSettle(rule)
  const deadline = timeUntil(deadlineAt, now)
  const cancel = cancelled(options.signal)
  const endings = [calls.allDone, deadline.promise, cancel.promise] as const
  const ended = calls.running.size === 0 ? 'done' : await Promise.race([...endings, calls.settled])
  calls.stopSettle()
  const late = ended === 'settled' ? [...calls.running.values()] : []
  const finish = (end: 'done' | 'deadline' | 'cancelled' | 'settled') => {
    deadline.dispose()
    cancel.dispose()
    // A call cut off by the deadline or the settle ran at least this long (its pool learns that); a cancel says nothing.
    if (end === 'deadline') controller.abort(new CallCutOff('search deadline reached', true))
    if (end === 'cancelled') controller.abort(new CallCutOff('search was cancelled', false))
    // Cut off when the search settled: not a failure of theirs (the pools do not count it), not reported.
    if (end === 'settled') {
      calls.cutOff()
      controller.abort(new CallCutOff('search settled', true))
    }
  }
  if (ended === 'settled' && options.lateCalls === 'finish') {
    const rest = Promise.race(endings).then((end): FanOutResult => {
      finish(end)
      return { outcomes: calls.outcomes.slice(), launched: new Map(calls.launchedBy), late: [] }
    })
    return { outcomes: calls.outcomes.slice(), launched: new Map(calls.launchedBy), late, rest }
  }
  finish(ended)
  return { outcomes: calls.outcomes, launched: calls.launchedBy, late }
}

/**
 * The providers in the order their calls start: by typical latency (the learned p50, or the definition's until
 * timed), slowest first, so the call the search waits longest for is on the wire before the quick ones are written.
 * Calls start within the same tick, yet each request is built and written in turn (~0.2–1 ms each).
 */
function slowestFirst(
  names: Iterable<ProviderName>,
  pools: ReadonlyMap<ProviderName, Pick<KeyPool, 'typicalMs'>>,
): ProviderName[] {
  const typical = new Map([...names].map((name) => [name, pools.get(name)?.typicalMs() ?? -1]))
  return [...typical.keys()].sort((a, b) => typical.get(b)! - typical.get(a)!)
}

/** The calls of one fan-out: launching them (stand-ins included), their outcomes, and when the search settles. */
function callTracker(options: FanOutOptions, controller: AbortController) {
  const { roster, fallbacksOf, maxCalls, pools, reading, emit, now } = options
  const outcomes: CallOutcome[] = []
  const launched = new Set<string>()
  const launchedBy = new Map<ProviderName, number>()
  const running = new Map<string, LateCall>()
  const sent = callsSent(options.onCallsSent)
  const allDone = deferred<'done'>()
  const settled = deferred<'settled'>()
  let rule: SettleRule | undefined
  let graceTimer: NodeJS.Timeout | undefined
  let reporting = true

  // Once nothing the rule waits for is running, the others get their grace (never past the deadline).
  const checkSettled = () => {
    if (!rule || graceTimer || running.size === 0) return
    for (const c of running.values()) if (rule.awaited(c.provider)) return
    const graceMs = Math.max(0, Math.min(rule.graceMs(), options.deadlineAt - now()))
    graceTimer = setTimeout(() => settled.resolve('settled'), graceMs)
  }

  const launch = (name: ProviderName, query: string) => {
    const id = `${name}\u0000${query}`
    if (launched.has(id)) return
    if ((launchedBy.get(name) ?? 0) >= (options.queriesFor?.(name) ?? Number.POSITIVE_INFINITY)) return
    if (launched.size >= maxCalls) {
      options.warn(`${name} was not asked "${query}": maxCallsPerRequest ${maxCalls} reached`)
      return
    }
    launched.add(id)
    launchedBy.set(name, (launchedBy.get(name) ?? 0) + 1)
    running.set(id, { provider: name, query, startedAt: now() })
    void call(name, query).finally(() => {
      running.delete(id)
      sent.ended()
      if (running.size === 0) allDone.resolve('done')
      else checkSettled()
    })
  }

  // The failed provider's first stand-in takes over this query (and is activated for later ones), unless a typically
  // far slower one would: those passed over for a quicker one are left out first.
  const handOver = async (name: ProviderName, query: string) => {
    const quicker = await options.quickerStandIn?.(name)
    for (const skipped of quicker?.passedOver ?? []) roster.passOver(skipped.name, skipped.reason, name)
    for (const next of fallbacksOf(name)) {
      if (roster.active.has(next) && roster.active.get(next) === undefined) return // a primary: it has this query
      if (await roster.activate(next, name)) {
        launch(next, query)
        return
      }
    }
  }

  const call = async (name: ProviderName, query: string): Promise<void> => {
    const t0 = now()
    emit({ type: 'started', provider: name, query })
    const onRequestSent = sent.tracker()
    try {
      // The pool picks the key, holds it to its pace and circuit, and retries once on another key.
      const response = await pools
        .get(name)!
        .call(
          { deadlineAt: options.deadlineAt, signal: controller.signal, reading, warn: options.warn },
          async (key) => {
            await options.beforeCall(name)
            return options.ask(name, query, controller.signal, { ...key, onRequestSent })
          },
        )
      // Built-in or plug-in, what a provider returns is checked here, the one door into a search.
      const { results, answer, rejected } = checkProviderResponse(name, response)
      const ms = now() - t0
      if (!reporting) return
      outcomes.push({
        provider: name,
        query,
        results,
        ms,
        ...(answer && { answer }),
        ...(response.cost && { cost: { usd: response.cost.usd, credits: response.cost.credits } }),
        ...(Object.keys(rejected).length > 0 && { rejected }),
      })
      emit({ type: 'done', provider: name, query, results: results.length, ms })
      options.onAnswer?.(outcomes.slice())
    } catch (caught) {
      if (!reporting) return
      const error = toProviderError(name, caught)
      const ms = now() - t0
      outcomes.push({ provider: name, query, error, ms })
      emit({ type: 'failed', provider: name, query, kind: error.kind, message: error.message, ms })
      if (!controller.signal.aborted) await handOver(name, query)
    }
  }

  return {
    outcomes,
    launchedBy,
    running,
    sent,
    allDone: allDone.promise,
    settled: settled.promise,
    launch,
    watchSettle: (settleRule: SettleRule) => {
      rule = settleRule
      checkSettled()
    },
    stopSettle: () => clearTimeout(graceTimer),
    /** The calls still running were cut off: what they end in is not reported. */
    cutOff: () => {
      reporting = false
    },
  }
}

function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve: (value: T) => void = () => {}
  const promise = new Promise<T>((r) => {
    resolve = r
  })
  return { promise, resolve }
}

// Resolves 'deadline' at `at`; `dispose` clears the timer.
function timeUntil(at: number, now: () => number): { promise: Promise<'deadline'>; dispose: () => void } {
  let timer: NodeJS.Timeout | undefined
  const promise = new Promise<'deadline'>((resolve) => {
    timer = setTimeout(() => resolve('deadline'), Math.max(0, at - now()))
  })
  return { promise, dispose: () => clearTimeout(timer) }
}

// Resolves when `signal` aborts; `dispose` removes the listener once the fan-out is over.
function cancelled(signal: AbortSignal | undefined): { promise: Promise<'cancelled'>; dispose: () => void } {
  if (!signal) return { promise: new Promise(() => {}), dispose: () => {} }
  let onAbort = () => {}
  const promise = new Promise<'cancelled'>((resolve) => {
    onAbort = () => resolve('cancelled')
    if (signal.aborted) resolve('cancelled')
    else signal.addEventListener('abort', onAbort, { once: true })
  })
  return { promise, dispose: () => signal.removeEventListener('abort', onAbort) }
}

/**
 * Tells `onCallsSent` once: when the calls it was told to expect have each reported a request written, or when any
 * call ends. Each call's tracker counts its first request only (retries and other keys send again).
 */
export function callsSent(onCallsSent: (() => void) | undefined) {
  let expected = Number.POSITIVE_INFINITY
  let count = 0
  let told = false
  const tell = () => {
    if (told || !onCallsSent) return
    told = true
    onCallsSent()
  }
  return {
    tracker: () => {
      let counted = false
      return () => {
        if (counted) return
        counted = true
        if (++count >= expected) tell()
      }
    },
    expect: (calls: number) => {
      expected = calls
      if (count >= expected) tell()
    },
    ended: tell,
  }
}

const toProviderError = (provider: ProviderName, error: unknown): ProviderError =>
  isProviderError(error)
    ? error
    : new ProviderError(`${provider} failed unexpectedly: ${(error as Error)?.message ?? String(error)}`, {
        kind: 'bad_response',
        provider,
        cause: error,
      })

/** `promise`, or a `timeout` `ProviderError` as soon as `signal` aborts (the work itself goes on). */
export function raceSignal<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise
  if (signal.aborted)
    return Promise.reject(new ProviderError('search was cancelled', { kind: 'timeout', retryable: false }))
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new ProviderError('search was cancelled', { kind: 'timeout', retryable: false }))
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort)
        resolve(v)
      },
      (e) => {
        signal.removeEventListener('abort', onAbort)
        reject(e)
      },
    )
  })
}
