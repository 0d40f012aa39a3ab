import {
  ConfigError,
  type Env,
  type Mode,
  type Provider,
  type ProviderDefinition,
  type ProviderName,
  type ProviderRequest,
  frozenRequest,
  keyVariableHint,
} from '@search-layer/core'
import type { ConfigProblem, ConfigReading } from '@search-layer/core/config'
import { inspectConfig, keylessSourcesEnabled, readConfigFiles } from '@search-layer/core/config'
import {
  type AssembleContext,
  assembleResults,
  buildResponse,
  rejectedResultWarnings,
  reportCalls,
} from './_assemble.js'
import { type CallContext, type CallOutcome, fanOut } from './_fan-out.js'
import type { KeyPool } from './_key-pool.js'
import { describeOperators } from './_operators.js'
import { warmUpAssembly } from './_warm-up.js'
import { type IntentModelSetting, intentModelFor, refineIntent } from './_intent-model.js'
import { type Strategy, budgetWarnings, capQueries, planStrategy } from './_plan.js'
import { type Roster, createRoster } from './_roster.js'
import { type UsageStore, monthOf } from './budget.js'
import { type SourcePlan, needsNoKey, routingOf, verticalsFor } from './registry.js'
import type { ParsedSearchRequest } from './request.js'
import type { KeylessOnlyNotice, ProviderReport, SearchProgress, SearchResponse } from './response.js'
import { type SearchStreamEvent, describePlan } from './stream.js'

/** What every search of one layer shares: its providers and their protections, built once by `createSearchLayer`. */
export interface LayerState {
  env: Env
  now: () => number
  definitions: readonly ProviderDefinition[]
  ids: readonly ProviderName[]
  sourcePlans: Readonly<Record<Mode, SourcePlan>>
  /** Who searches when no engine is configured (`planFallback`). */
  fallbackPlan: SourcePlan
  answerOrder: readonly ProviderName[]
  /** The provider instance a mode calls (answer mode asks for a written answer). */
  providerFor: (name: ProviderName, mode: Mode) => Provider
  /** Each provider's keys, with their circuits, paces and learned limits. */
  pools: ReadonlyMap<ProviderName, KeyPool>
  usage: UsageStore
  monthlyBudgets?: Partial<Record<ProviderName, number>>
  maxCalls: number
  /** Who may classify a query the rules are unsure of (`SearchLayerOptions.intentModel`). */
  intentModel: IntentModelSetting
}

/**
 * One search's view of its layer: the config files as read once when it started, against which every check and
 * provider call of the search resolves its keys (one `stat` per file and one resolution per provider, where each
 * call once read the files again: ~30 resolutions per deep search).
 */
interface SearchState extends LayerState {
  reading: ConfigReading
}

/** The caller's hooks into one run (see `SearchCallOptions`). */
export interface RunHooks {
  onProgress?: (event: SearchProgress) => void
  onStream?: (event: SearchStreamEvent) => void
  onCallsSent?: () => void
  /** Aborted when every caller waiting for this run has gone: its provider calls are cancelled. */
  signal?: AbortSignal
}

/** One search's run: the plan (intent, sub-queries, who takes part, budget) → the fan-out → the response. */
export async function runSearch(
  shared: LayerState,
  req: ParsedSearchRequest,
  { onProgress, onStream, onCallsSent, signal }: RunHooks = {},
): Promise<SearchResponse> {
  const layer: SearchState = { ...shared, reading: readConfigFiles({ env: shared.env }) }
  const { now, usage } = layer
  const started = now()
  const deadlineAt = started + req.deadlineMs
  const { emit, send } = listeners(onProgress, onStream, () => now() - started)
  const model = intentModelFor(layer.intentModel, layer.env)
  const refined = await refineIntent(planStrategy(req, new Date(now())), req, new Date(now()), model)
  const strategy = refined.strategy
  const month = monthOf(new Date(started))

  const keyless = keylessSourcesEnabled({ env: layer.env, reading: layer.reading })
  const configProblems = relevantConfigProblems(layer)
  const warnings = [
    ...(refined.warning ? [refined.warning] : []),
    ...strategy.operators.warnings,
    ...configProblems.map((p) => p.message),
  ]
  const unavailable = unavailability(layer, strategy.mode, month, configProblems, keyless)
  const route = routeSearch(layer, req, strategy, keyless)
  // A broken config file may be where the engine keys are: say so rather than quietly search keyless.
  if (route.fallback && configProblems.some((p) => p.severity === 'error'))
    throw noProviderError(layer, configProblems, keyless)
  const { roster, fallbacksOf } = await enlist(layer, route, req, unavailable, emit)
  const nothingToCall =
    roster.active.size === 0 ? explainNothingToCall(layer, roster, strategy, configProblems, keyless) : undefined
  warnings.push(...(nothingToCall?.warnings ?? []))
  const limitOf = (name: ProviderName) => layer.monthlyBudgets?.[name]
  const usedOf = (name: ProviderName) => usage.get(name, month)
  warnings.push(...(await budgetWarnings(roster.active.keys(), strategy.queries.length, limitOf, usedOf)))
  const { queries, warning: capWarning } = capQueries(strategy.queries, roster.active.size, layer.maxCalls)
  if (capWarning) warnings.push(capWarning)
  if (onStream)
    send(
      describePlan({
        ...strategy,
        req,
        queries,
        reports: roster.reports,
        active: roster.active,
        fallbacksOf,
        whyAsked: (name) => route.why[name],
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
  const gathered = await fanOut({
    queries,
    roster,
    fallbacksOf,
    deadlineAt,
    ...(signal && { signal }),
    maxCalls: layer.maxCalls,
    queriesFor: queriesAtPace(layer),
    pools: layer.pools,
    reading: layer.reading,
    ask: askFor(layer, req, strategy, deadlineAt),
    beforeCall: async (name) => {
      if (limitOf(name) !== undefined) await usage.increment(name, month, 1)
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
  reportCalls(roster, gathered, { deadlineMs: req.deadlineMs, elapsedMs: now() - started })
  const assembled = assembleResults(gathered.outcomes, assembleContext(), await loadScoring())
  const called = [...roster.active.keys()]
  const operatorReport = describeOperators(strategy.operators, called, definitionsById(layer), assembled.enforcement)
  const failedSome = called.some((name) => roster.reports[name]!.error !== undefined)
  const keylessOnly = route.noEngine ? keylessOnlyNotice(layer, roster.reports) : undefined
  return buildResponse({
    strategy,
    queries,
    assembled,
    ...(operatorReport && { operatorReport }),
    reports: roster.reports,
    partial: (nothingToCall?.resting.length ?? 0) > 0 || failedSome,
    warnings,
    ...(keylessOnly && { keylessOnly }),
    totalMs: now() - started,
  })
}

// Scoring, with the public-suffix list its authority table needs, is the biggest module a search uses only
// after the providers answer: it loads once the requests are on the wire (`onCallsSent`), so a one-shot process
// (the CLI) evaluates it while they travel, not before they are written (~6 ms). A long-running process loads it
// once.
let scoringModule: Promise<typeof import('@search-layer/scoring')> | undefined
const loadScoring = () => (scoringModule ??= import('@search-layer/scoring'))

const definitionsById = ({ definitions }: LayerState) => new Map(definitions.map((d) => [d.id, d]))

/** Problems in env and config files that concern this layer's providers (not GitHub's token, say). */
function relevantConfigProblems({ env, definitions, reading }: SearchState): ConfigProblem[] {
  const ids = new Set(definitions.map((d) => d.id))
  return inspectConfig({ env, services: definitions, reading }).problems.filter((p) =>
    p.services.some((s) => ids.has(s)),
  )
}

const secondsUntil = (now: number, until: number | undefined) => Math.max(0, Math.ceil(((until ?? now) - now) / 1000))

const KEYLESS_OFF = 'keyless sources are off (SEARCH_LAYER_KEYLESS=off, or "keyless": false in the config file)'

/**
 * Why `name` cannot be called in this search (keyless sources off, no key, resting, over budget), or `undefined`
 * when it can.
 */
function unavailability(
  layer: SearchState,
  mode: Mode,
  month: string,
  configProblems: readonly ConfigProblem[],
  keyless: boolean,
) {
  return async (name: ProviderName): Promise<string | undefined> => {
    if (!keyless && needsNoKey(definitionOf(layer, name))) return KEYLESS_OFF
    if (!isConfigured(layer, name, mode)) return notConfiguredReason(layer, name, configProblems)
    // Another run or server instance may have rested this provider's keys.
    const pool = layer.pools.get(name)!
    await pool.refresh(layer.reading)
    const circuit = pool.state()
    if (circuit.open)
      return `cooling down for ${secondsUntil(layer.now(), circuit.until)}s after repeated failures (last: ${circuit.lastError?.kind ?? 'unknown'})`
    const limit = layer.monthlyBudgets?.[name]
    if (limit !== undefined && (await layer.usage.get(name, month)) >= limit)
      return `monthly budget of ${limit} calls used up (raise monthlyBudgets.${name})`
    return undefined
  }
}

const definitionOf = (layer: LayerState, name: ProviderName) => layer.definitions.find((d) => d.id === name)!

const isConfigured = (layer: SearchState, name: ProviderName, mode: Mode) =>
  layer.providerFor(name, mode).isConfigured(layer.env, layer.reading)

/** Who a search asks before availability is checked, who stands in for whom, and why each is (not) asked. */
interface Route {
  primary: readonly ProviderName[]
  fallbacks: Readonly<Record<ProviderName, readonly ProviderName[]>>
  /** Why a primary is asked, when it is not simply the mode's (a vertical, a keyless fallback). */
  why: Readonly<Record<ProviderName, string>>
  notUsedReason: (name: ProviderName) => string
  /** No engine is configured. */
  noEngine: boolean
  /** So the keyless fallback engines search instead (no `sources` were named, keyless sources are on). */
  fallback: boolean
}

const FALLBACK_WHY = 'no search engine key is set: a keyless engine searches instead'

/**
 * The requested `sources`; else the mode's engines — or, when no engine is configured, the fallback engines — plus
 * the verticals the intent and the query's language ask for (`verticalsFor`). Keyless sources only when allowed.
 */
function routeSearch(layer: SearchState, req: ParsedSearchRequest, strategy: Strategy, keyless: boolean): Route {
  const { mode, classification } = strategy
  const allowed = (d: ProviderDefinition) => keyless || !needsNoKey(d)
  const noEngine = !layer.definitions.some(
    (d) => routingOf(d) === 'engine' && allowed(d) && isConfigured(layer, d.id, mode),
  )
  const modePlan = layer.sourcePlans[mode]
  if (req.sources) {
    const notUsedReason = () => `not used in ${mode} mode`
    return { primary: req.sources, fallbacks: modePlan.fallbacks, why: {}, notUsedReason, noEngine, fallback: false }
  }
  const fallback = keyless && noEngine
  const plan = fallback ? layer.fallbackPlan : modePlan
  const verticals = verticalsFor(layer.definitions, classification?.intent ?? null, strategy.baseQuery).filter((v) =>
    allowed(definitionOf(layer, v.id)),
  )
  const notUsedReason = (name: ProviderName) => {
    const definition = definitionOf(layer, name)
    // "not used…": the provider was not asked (interfaces leave these out of status lines); it did not fail.
    if (!allowed(definition)) return `not used: ${KEYLESS_OFF}`
    const routing = routingOf(definition)
    if (routing === 'fallback') return 'not used while a search engine key is set'
    if (routing === 'vertical')
      return classification ? `not used for ${classification.intent} searches` : 'not used without an intent'
    return fallback ? `not used: no key (set ${keyVariableHint(definition)})` : `not used in ${mode} mode`
  }
  const why = [
    ...(fallback ? plan.primary.map((id) => [id, FALLBACK_WHY]) : []),
    ...verticals.map((v) => [v.id, v.why]),
  ]
  return {
    primary: [...plan.primary, ...verticals.map((v) => v.id)],
    fallbacks: plan.fallbacks,
    why: Object.fromEntries(why),
    notUsedReason,
    noEngine,
    fallback,
  }
}

/** The roster of one search: the route's primaries, each missing one's stand-ins (within the requested `sources`). */
async function enlist(
  layer: SearchState,
  route: Route,
  req: ParsedSearchRequest,
  unavailable: (name: ProviderName) => Promise<string | undefined>,
  emit: (event: SearchProgress) => void,
) {
  const allowed = (name: ProviderName) => !req.sources || req.sources.includes(name)
  const fallbacksOf = (name: ProviderName) => (route.fallbacks[name] ?? []).filter(allowed)
  const roster = createRoster({ ids: layer.ids, notUsedReason: route.notUsedReason, fallbacksOf, unavailable, emit })
  // Each pool reads its keys' state from the store (a file, Redis) before its provider is activated: started together
  // the reads are one round trip (the file store shares one read), not one per provider in turn (~2 ms in the CLI).
  await Promise.all(route.primary.map((name) => layer.pools.get(name)?.refresh(layer.reading)))
  for (const name of route.primary) await roster.activate(name)
  return { roster, fallbacksOf }
}

/**
 * The notice for a search only keyless sources answered because no engine is configured: which answered, and the
 * engines' key variables to set for more (from their definitions). `undefined` when a keyed source answered too.
 */
function keylessOnlyNotice(
  layer: LayerState,
  reports: Record<ProviderName, ProviderReport>,
): KeylessOnlyNotice | undefined {
  const answered = layer.ids.filter((name) => reports[name]?.status === 'ok')
  if (answered.length === 0 || !answered.every((name) => needsNoKey(definitionOf(layer, name)))) return undefined
  const set = layer.definitions.filter((d) => routingOf(d) === 'engine' && !d.keyless).map((d) => keyVariableHint(d))
  if (set.length === 0) return undefined
  const variables = set.length === 1 ? set[0]! : `${set.slice(0, -1).join(', ')} or ${set.at(-1)}`
  return {
    sources: answered,
    set,
    message: `only keyless sources were used (${answered.join(', ')}); set ${variables} for more`,
  }
}

/**
 * Nobody to call: a `ConfigError` when no provider is configured at all; else every provider this search could use
 * is resting, and the warnings say until when.
 */
function explainNothingToCall(
  layer: SearchState,
  roster: Roster,
  { mode }: Strategy,
  configProblems: readonly ConfigProblem[],
  keyless: boolean,
) {
  const { ids, pools, now } = layer
  const usable = (name: ProviderName) => keyless || !needsNoKey(definitionOf(layer, name))
  const configured = ids.filter((name) => usable(name) && isConfigured(layer, name, mode))
  if (configured.length === 0) throw noProviderError(layer, configProblems, keyless)
  const resting = [...roster.tried].filter((name) => pools.get(name)!.isOpen())
  const warnings = resting.map((name) => {
    const circuit = pools.get(name)!.state()
    return `${name} is resting after repeated failures (last: ${circuit.lastError?.kind ?? 'unknown'}); it will be retried in ${secondsUntil(now(), circuit.until)} s, at ${new Date(circuit.until ?? now()).toISOString()}`
  })
  return { resting, warnings }
}

/**
 * How this search asks one provider one query: every provider gets the same frozen request for a query, which
 * `defineProvider` then validates once for all of them.
 */
function askFor(
  layer: SearchState,
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

/** Why a provider has no usable key: its own misconfiguration, a broken file, or simply no key. */
function notConfiguredReason(layer: LayerState, name: ProviderName, problems: readonly ConfigProblem[]): string {
  const errors = problems.filter((p) => p.severity === 'error' && p.services.includes(name))
  const own = errors.find((p) => p.services.length === 1)
  if (own) return `misconfigured: ${own.message}`
  const shared = errors[0]
  const hint = `set ${keyVariableHint(layer.definitions.find((d) => d.id === name)!)}`
  return shared ? `not configured: ${hint}, or fix the config file: ${shared.message}` : `not configured: ${hint}`
}

/** No provider is configured: what is broken in the configuration when something is, else which variables to set. */
function noProviderError(layer: LayerState, configProblems: readonly ConfigProblem[], keyless: boolean): ConfigError {
  const keyVariables = layer.definitions
    .filter((d) => routingOf(d) === 'engine' && !d.keyless)
    .map((d) => keyVariableHint(d))
    .join(', ')
  const errors = configProblems.filter((p) => p.severity === 'error')
  const off = keyless ? '' : `; ${KEYLESS_OFF}`
  // A layer built from keyless plug-ins alone has no key to ask for: only the keyless switch can be the cause.
  if (errors.length === 0 && !keyVariables)
    return new ConfigError(`no search provider is configured: every provider needs no key${off}`)
  if (errors.length === 0)
    return new ConfigError(
      `no search provider is configured: set at least one of ${keyVariables} (or add keys to ~/.config/search-layer/config.json)${off}`,
    )
  return new ConfigError(
    `no search provider is usable: ${errors.map((p) => p.message).join(' ')} Keys can also come from ${keyVariables}.`,
    errors.length === 1 ? configErrorOrigin(errors[0]!) : {},
  )
}

const configErrorOrigin = (problem: ConfigProblem) => ({
  ...(problem.file !== undefined && { file: problem.file }),
  ...(problem.field !== undefined && { field: problem.field }),
  ...(problem.variable !== undefined && { variable: problem.variable }),
})

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
function queriesAtPace(layer: LayerState): (name: ProviderName) => number {
  const paced = new Set(layer.definitions.filter((d) => routingOf(d) !== 'engine').map((d) => d.id))
  // Read when a call is launched: a stand-in's keys are known only once it is activated.
  return (name) => (paced.has(name) ? layer.pools.get(name)!.callsAtOnce() : Number.POSITIVE_INFINITY)
}
