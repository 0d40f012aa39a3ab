import {
  ConfigError,
  type ConfigProblem,
  type Env,
  type Mode,
  type Provider,
  type ProviderDefinition,
  type ProviderName,
  inspectConfig,
  keyVariableHint,
} from '@search-layer/core'
import { type AssembleContext, type CallOutcome, assembleResults, buildResponse, reportCalls } from './_assemble.js'
import type { CircuitBreaker } from './_circuit.js'
import { fanOut } from './_fan-out.js'
import { describeOperators } from './_operators.js'
import { type Strategy, budgetWarnings, capQueries, planStrategy } from './_plan.js'
import type { RateLimiter } from './_rate-limit.js'
import { type Roster, createRoster } from './_roster.js'
import { type UsageStore, monthOf } from './budget.js'
import type { SourcePlan } from './registry.js'
import type { ParsedSearchRequest } from './request.js'
import type { SearchProgress, SearchResponse } from './response.js'
import { type SearchStreamEvent, describePlan } from './stream.js'

/** What every search of one layer shares: its providers and their protections, built once by `createSearchLayer`. */
export interface LayerState {
  env: Env
  now: () => number
  definitions: readonly ProviderDefinition[]
  ids: readonly ProviderName[]
  sourcePlans: Readonly<Record<Mode, SourcePlan>>
  answerOrder: readonly ProviderName[]
  /** The provider instance a mode calls (answer mode asks for a written answer). */
  providerFor: (name: ProviderName, mode: Mode) => Provider
  circuits: ReadonlyMap<ProviderName, CircuitBreaker>
  limiters: ReadonlyMap<ProviderName, RateLimiter>
  usage: UsageStore
  monthlyBudgets?: Partial<Record<ProviderName, number>>
  maxCalls: number
}

/** One search's run: the plan (intent, sub-queries, who takes part, budget) → the fan-out → the response. */
export async function runSearch(
  layer: LayerState,
  req: ParsedSearchRequest,
  onProgress?: (event: SearchProgress) => void,
  onStream?: (event: SearchStreamEvent) => void,
): Promise<SearchResponse> {
  const { now, usage } = layer
  const started = now()
  const deadlineAt = started + req.deadlineMs
  const { emit, send } = listeners(onProgress, onStream, () => now() - started)
  const strategy = planStrategy(req, new Date(now()))
  const month = monthOf(new Date(started))

  const configProblems = relevantConfigProblems(layer)
  const warnings = [...strategy.operators.warnings, ...configProblems.map((p) => p.message)]
  const unavailable = unavailability(layer, strategy.mode, month, configProblems)
  const { roster, fallbacksOf } = await enlist(layer, req, strategy.mode, unavailable, emit)
  const nothingToCall =
    roster.active.size === 0 ? explainNothingToCall(layer, roster, strategy.mode, configProblems) : undefined
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
        warnings,
      }),
    )

  const scoring = loadScoring()
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
    maxCalls: layer.maxCalls,
    circuits: layer.circuits,
    limiters: layer.limiters,
    ask: askFor(layer, req, strategy, deadlineAt),
    beforeCall: async (name) => {
      if (limitOf(name) !== undefined) await usage.increment(name, month, 1)
    },
    emit,
    // Ranked from what had arrived by now, even when scoring is still loading.
    ...(onStream && {
      onAnswer: (sofar: CallOutcome[]) => void scoring.then((module) => streamResults(sofar, module)),
    }),
    warn: (message) => warnings.push(message),
    now,
  })

  reportCalls(roster, gathered, { deadlineMs: req.deadlineMs, elapsedMs: now() - started })
  const assembled = assembleResults(gathered.outcomes, assembleContext(), await scoring)
  const called = [...roster.active.keys()]
  const operatorReport = describeOperators(strategy.operators, called, definitionsById(layer), assembled.enforcement)
  const failedSome = called.some((name) => roster.reports[name]!.error !== undefined)
  return buildResponse({
    strategy,
    queries,
    assembled,
    ...(operatorReport && { operatorReport }),
    reports: roster.reports,
    partial: (nothingToCall?.resting.length ?? 0) > 0 || failedSome,
    warnings,
    totalMs: now() - started,
  })
}

// Scoring, with the public-suffix list its authority table needs, is the biggest module a search uses only
// after the providers answer: it loads while they are on the wire, so a one-shot process (the CLI) does not
// compile and evaluate it before its first request. A long-running process loads it once.
let scoringModule: Promise<typeof import('@search-layer/scoring')> | undefined
const loadScoring = () => (scoringModule ??= import('@search-layer/scoring'))

const definitionsById = ({ definitions }: LayerState) => new Map(definitions.map((d) => [d.id, d]))

/** Problems in env and config files that concern this layer's providers (not GitHub's token, say). */
function relevantConfigProblems({ env, definitions }: LayerState): ConfigProblem[] {
  const ids = new Set(definitions.map((d) => d.id))
  return inspectConfig({ env, services: definitions }).problems.filter((p) => p.services.some((s) => ids.has(s)))
}

const secondsUntil = (now: number, until: number | undefined) => Math.max(0, Math.ceil(((until ?? now) - now) / 1000))

/** Why `name` cannot be called in this search (no key, resting, over budget), or `undefined` when it can. */
function unavailability(layer: LayerState, mode: Mode, month: string, configProblems: readonly ConfigProblem[]) {
  return async (name: ProviderName): Promise<string | undefined> => {
    if (!layer.providerFor(name, mode).isConfigured(layer.env)) return notConfiguredReason(layer, name, configProblems)
    const circuit = layer.circuits.get(name)!.state()
    if (circuit.open)
      return `cooling down for ${secondsUntil(layer.now(), circuit.until)}s after repeated failures (last: ${circuit.lastError?.kind ?? 'unknown'})`
    const limit = layer.monthlyBudgets?.[name]
    if (limit !== undefined && (await layer.usage.get(name, month)) >= limit)
      return `monthly budget of ${limit} calls used up (raise monthlyBudgets.${name})`
    return undefined
  }
}

/** The roster of one search: the mode's providers (or the requested `sources`), each missing one's stand-ins. */
async function enlist(
  layer: LayerState,
  req: ParsedSearchRequest,
  mode: Mode,
  unavailable: (name: ProviderName) => Promise<string | undefined>,
  emit: (event: SearchProgress) => void,
) {
  const plan = layer.sourcePlans[mode]
  const allowed = (name: ProviderName) => !req.sources || req.sources.includes(name)
  const fallbacksOf = (name: ProviderName) => (plan.fallbacks[name] ?? []).filter(allowed)
  const notUsedReason = `not used in ${mode} mode`
  const roster = createRoster({ ids: layer.ids, notUsedReason, fallbacksOf, unavailable, emit })
  for (const name of req.sources ?? plan.primary) await roster.activate(name)
  return { roster, fallbacksOf }
}

/**
 * Nobody to call: a `ConfigError` when no provider is configured at all; else every provider this search could use
 * is resting, and the warnings say until when.
 */
function explainNothingToCall(layer: LayerState, roster: Roster, mode: Mode, configProblems: readonly ConfigProblem[]) {
  const { ids, circuits, now } = layer
  const configured = ids.filter((name) => layer.providerFor(name, mode).isConfigured(layer.env))
  if (configured.length === 0) throw noProviderError(layer, configProblems)
  const resting = [...roster.tried].filter((name) => circuits.get(name)!.isOpen())
  const warnings = resting.map((name) => {
    const circuit = circuits.get(name)!.state()
    return `${name} is resting after repeated failures (last: ${circuit.lastError?.kind ?? 'unknown'}); it will be retried in ${secondsUntil(now(), circuit.until)} s, at ${new Date(circuit.until ?? now()).toISOString()}`
  })
  return { resting, warnings }
}

/** How this search asks one provider one query. */
function askFor(
  layer: LayerState,
  req: ParsedSearchRequest,
  { mode, freshness, operators }: Strategy,
  deadlineAt: number,
) {
  return (name: ProviderName, query: string, signal: AbortSignal) =>
    layer.providerFor(name, mode).search(
      {
        query,
        num: req.num,
        ...(freshness && { freshness }),
        ...operators.providerFields,
      },
      { signal, deadlineAt, env: layer.env, now: () => new Date(layer.now()) },
    )
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
function noProviderError(layer: LayerState, configProblems: readonly ConfigProblem[]): ConfigError {
  const keyVariables = layer.definitions
    .filter((d) => !d.keyless)
    .map((d) => keyVariableHint(d))
    .join(', ')
  const errors = configProblems.filter((p) => p.severity === 'error')
  if (errors.length === 0)
    return new ConfigError(
      `no search provider is configured: set at least one of ${keyVariables} (or add keys to ~/.config/search-layer/config.json)`,
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
