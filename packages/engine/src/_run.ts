import { type ProviderName, type ProviderRequest, frozenRequest } from '@search-layer/core'
import { readConfigFiles } from '@search-layer/core/config'
import {
  type AssembleContext,
  assembleResults,
  buildResponse,
  rejectedResultWarnings,
  reportCalls,
} from './_assemble.js'
import { enlistProviders, keylessOnlyNotice } from './_enlist.js'
import { type CallContext, type CallOutcome, fanOut } from './_fan-out.js'
import { intentModelFor, refineIntent } from './_intent-model.js'
import { respondLate } from './_late.js'
import type { LayerForSearch, LayerParts } from './_layer.js'
import type { Roster } from './_roster.js'
import { describeOperators } from './_operators.js'
import { pagesToRead, prepareReading, readTopResults, readingReserveMs } from './_read.js'
import { MIN_GRACE_MS, settleRule } from './_settle.js'
import { type Strategy, planStrategy } from './_strategy.js'
import { warmUpAssembly } from './_warm-up.js'
import { monthOf } from './budget.js'
import type { ParsedSearchRequest } from './request.js'
import type { SearchProgress, SearchResponse } from './response.js'
import { type SearchStreamEvent, describePlan } from './stream.js'

/** The caller's hooks into one run (see `SearchCallOptions`). */
export interface RunHooks {
  onProgress?: (event: SearchProgress) => void
  onStream?: (event: SearchStreamEvent) => void
  onCallsSent?: () => void
  /** Aborted when every caller waiting for this run has gone: its provider calls are cancelled. */
  signal?: AbortSignal
  /**
   * After the response, when the layer lets late calls finish (`lateCalls: 'finish'`) and some were running when
   * the search settled: the full response, once they ended or the deadline came.
   */
  onComplete?: (response: SearchResponse) => void
}

/** One search's run: the plan (intent, sub-queries, who takes part, budget) → the fan-out → the response. */
export async function executeSearch(
  shared: LayerParts,
  req: ParsedSearchRequest,
  { onProgress, onStream, onCallsSent, signal, onComplete }: RunHooks = {},
): Promise<SearchResponse> {
  const layer: LayerForSearch = { ...shared, reading: readConfigFiles({ env: shared.env }) }
  const { now, usage } = layer
  const started = now()
  const deadlineAt = started + req.deadlineMs
  // A search that reads its top results keeps the end of its deadline for them.
  const providersDeadlineAt = deadlineAt - readingReserveMs(req)
  prepareReading(layer, req)
  const { emit, send } = listeners(onProgress, onStream, () => now() - started)
  const model = intentModelFor(layer.intentModel, layer.env)
  const refined = await refineIntent(planStrategy(req, new Date(now())), req, new Date(now()), model)
  const strategy = refined.strategy
  const month = monthOf(new Date(started))

  const enlisted = await enlistProviders(layer, req, strategy, month, emit)
  const { roster, fallbacksOf, queries } = enlisted
  const warnings = [...(refined.warning ? [refined.warning] : []), ...strategy.operators.warnings, ...enlisted.warnings]
  if (onStream)
    send(
      describePlan({
        ...strategy,
        req,
        queries,
        reports: roster.reports,
        active: roster.active,
        fallbacksOf,
        whyAsked: enlisted.whyAsked,
        warnings,
      }),
    )

  const assembleContext = (): AssembleContext => ({
    req,
    baseQuery: strategy.baseQuery,
    queries,
    classification: strategy.classification,
    now: new Date(now()),
    providers: layer.ids,
    answerOrder: layer.answerOrder,
    ...(strategy.operators.kinds.length > 0 && { filters: strategy.operators.filters }),
  })
  // Each answer re-ranks everything received so far, so a stream shows the fastest provider's results first.
  const streamResults = (sofar: CallOutcome[], module: typeof import('@search-layer/scoring')) => {
    const answered = [...new Set(sofar.filter((o) => o.results).map((o) => o.provider))]
    const { enforcement: _counted, ...assembled } = assembleResults(sofar, assembleContext(), module)
    send({ type: 'results', ...assembled, answered, elapsed_ms: now() - started })
  }
  const settle = settleRule(layer, req, strategy, roster, { noEngine: enlisted.noEngine, startedAt: started })
  const gathered = await fanOut({
    queries,
    roster,
    ...(settle && { settle, lateCalls: layer.lateCalls }),
    fallbacksOf,
    quickerStandIn: enlisted.quickerStandIn,
    deadlineAt: providersDeadlineAt,
    ...(signal && { signal }),
    maxCalls: layer.maxCalls,
    queriesFor: queriesAtPace(layer, roster, settle !== undefined),
    pools: layer.pools,
    reading: layer.reading,
    ask: askFor(layer, req, strategy, providersDeadlineAt),
    beforeCall: async (name) => {
      if (layer.monthlyBudgets?.[name] !== undefined) await usage.increment(name, month, 1)
    },
    emit,
    // A failed load surfaces at the await below.
    onCallsSent: () =>
      void loadScoring()
        .then((scoring) => warmUpAssembly(scoring, assembleContext()))
        .catch(() => undefined)
        .then(onCallsSent)
        // A throwing hook breaks nothing, as a throwing listener does not.
        .catch(() => undefined),
    // Ranked from what had arrived by now, even when scoring is still loading.
    ...(onStream && {
      onAnswer: (sofar: CallOutcome[]) => void loadScoring().then((module) => streamResults(sofar, module)),
    }),
    warn: (message) => warnings.push(message),
    now,
  })

  for (const name of roster.active.keys()) warnings.push(...layer.pools.get(name)!.warnings())
  warnings.push(...rejectedResultWarnings(gathered.outcomes))
  reportCalls(roster, gathered, { deadlineMs: req.deadlineMs, elapsedMs: now() - started, now: now() })
  const assembled = assembleResults(gathered.outcomes, assembleContext(), await loadScoring())
  const called = [...roster.active.keys()]
  const operatorReport = describeOperators(strategy.operators, called, definitionsById(layer), assembled.enforcement)
  const failedSome = called.some((name) => roster.reports[name]!.error !== undefined)
  const keylessOnly = enlisted.noEngine ? keylessOnlyNotice(layer, roster.reports) : undefined
  const evidence =
    pagesToRead(req) > 0
      ? await readTopResults(
          layer,
          req,
          { query: strategy.baseQuery, queries, results: assembled.results },
          deadlineAt,
          signal,
        )
      : undefined
  const response = buildResponse({
    strategy,
    queries,
    assembled,
    ...(operatorReport && { operatorReport }),
    // Calls running on fill in the roster's reports again: the response keeps them as they are now.
    reports: gathered.rest ? structuredClone(roster.reports) : roster.reports,
    partial: enlisted.resting.length > 0 || failedSome,
    warnings,
    ...(keylessOnly && { keylessOnly }),
    ...(evidence && { evidence }),
    totalMs: now() - started,
  })
  if (gathered.rest) {
    const late = [...new Set(gathered.late.map((c) => c.provider))]
    send({ type: 'late', providers: late, elapsed_ms: now() - started })
    const run = {
      layer,
      req,
      strategy,
      queries,
      roster,
      warnings,
      resting: enlisted.resting,
      noEngine: enlisted.noEngine,
    }
    respondLate(gathered.rest, {
      ...run,
      assembleContext,
      scoring: loadScoring(),
      ...(evidence && { evidence }),
      startedAt: started,
    })
      .then(
        (full) => {
          send({ type: 'update', response: full })
          onComplete?.(full)
        },
        // The settled response went out; a failure to complete it leaves it as it was.
        () => send({ type: 'update', response }),
      )
      // A throwing hook breaks nothing.
      .catch(() => undefined)
  }
  return response
}

// Scoring, with the public-suffix list its authority table needs, is the biggest module a search uses only
// after the providers answer: it loads once the requests are on the wire (`onCallsSent`), so a one-shot process
// (the CLI) evaluates it while they travel, not before they are written (~6 ms). A long-running process loads it
// once.
let scoringModule: Promise<typeof import('@search-layer/scoring')> | undefined
const loadScoring = () => (scoringModule ??= import('@search-layer/scoring'))

const definitionsById = ({ definitions }: LayerParts) => new Map(definitions.map((d) => [d.id, d]))

/**
 * How this search asks one provider one query: every provider gets the same frozen request for a query, which
 * `defineProvider` then validates once for all of them.
 */
function askFor(
  layer: LayerForSearch,
  req: ParsedSearchRequest,
  { mode, freshness, operators }: Strategy,
  deadlineAt: number,
) {
  const requests = new Map<string, ProviderRequest>()
  const requestFor = (query: string): ProviderRequest => {
    const known = requests.get(query)
    if (known) return known
    const request = frozenRequest({ query, num: req.num, ...(freshness && { freshness }), ...operators.providerFields })
    requests.set(query, request)
    return request
  }
  return (name: ProviderName, query: string, signal: AbortSignal, call: CallContext) =>
    layer.providerFor(name, mode).search(requestFor(query), {
      signal,
      deadlineAt,
      env: layer.env,
      config: layer.reading,
      now: () => new Date(layer.now()),
      ...call,
    })
}

/** The run's two outlets: progress events (also streamed) and stream events. A throwing listener breaks nothing. */
function listeners(
  onProgress: ((event: SearchProgress) => void) | undefined,
  onStream: ((event: SearchStreamEvent) => void) | undefined,
  elapsedMs: () => number,
) {
  const send = (event: SearchStreamEvent) => {
    try {
      onStream?.(event)
    } catch {
      // A broken stream listener must not break the search.
    }
  }
  const emit = (event: SearchProgress) => {
    try {
      onProgress?.(event)
    } catch {
      // Nor a broken progress listener.
    }
    send({ type: 'progress', progress: event, elapsed_ms: elapsedMs() })
  }
  return { emit, send }
}

// Fallbacks and verticals keep the pace their definitions set (DuckDuckGo: 1 request/s, for politeness) and,
// unlike a paid engine's, nothing they answer raises it. They are asked only the queries that pace starts at once,
// the original first, instead of queueing the rest (a zero-key deep search spent two seconds on DuckDuckGo alone).
// A search that settles does the same with a keyed engine whose learned pace would start a query after the shortest
// grace (Brave's free plan, 1 request/s): the queries it leaves are asked of the engines with capacity anyway, and
// one queued a second behind would be cut off, or hold up a search that waits for it.
function queriesAtPace(
  layer: LayerParts,
  roster: Pick<Roster, 'active'>,
  settles: boolean,
): (name: ProviderName) => number {
  const paced = new Set(layer.definitions.filter((d) => d.routing !== 'engine').map((d) => d.id))
  const engines = new Set(layer.definitions.filter((d) => d.routing !== 'vertical').map((d) => d.id))
  // Only when another engine asks the same queries: a search's only engine is asked all of them, at its pace.
  const anotherEngine = (name: ProviderName) => [...roster.active.keys()].some((n) => n !== name && engines.has(n))
  // Read when a call is launched: a stand-in's keys are known only once it is activated.
  return (name) => {
    const pool = layer.pools.get(name)!
    if (paced.has(name)) return pool.callsAtOnce()
    return settles && anotherEngine(name) ? pool.callsWithin(MIN_GRACE_MS) : Number.POSITIVE_INFINITY
  }
}
