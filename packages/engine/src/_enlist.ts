import {
  ConfigError,
  type Mode,
  type ResolvedProviderDefinition,
  type ProviderName,
  keyVariableHint,
} from '@search-layer/core'
import { type ConfigProblem, inspectConfig, keylessSourcesEnabled } from '@search-layer/core/config'
import { type LayerForSearch, type LayerParts, definitionOf, isConfigured } from './_layer.js'
import { type Roster, createRoster } from './_roster.js'
import { MIN_GRACE_MS } from './_settle.js'
import { type StandInChoice, type StandInFacts, chooseStandIn } from './_stand-in.js'
import type { Strategy } from './_strategy.js'
import { needsNoKey, verticalsFor } from './registry.js'
import type { ParsedSearchRequest } from './request.js'
import type { KeylessOnlyNotice, ProviderReport, SearchProgress } from './response.js'

// Which providers take part in one search, and why: the route (the mode's engines, the fallbacks when no engine is
// configured, the verticals the intent asks for), who of them can be called now (keys, rests, budgets), who stands
// in for whom, how many queries each is asked, and the words that say why a provider was or was not asked.

/** Who takes part in one search, with the sub-queries they are asked and why the others are not. */
export interface Enlistment {
  roster: Roster
  /** Who stands in for a provider that cannot be called (within the requested `sources`). */
  fallbacksOf: (name: ProviderName) => ProviderName[]
  /**
   * When a call of `failed` fails: a quicker stand-in than the next in order when that one is typically far slower
   * (as at enlisting), or undefined to take them in order.
   */
  quickerStandIn: (failed: ProviderName) => Promise<StandInChoice | undefined>
  /** Why a primary is asked, when it is not simply the mode's (a vertical, a keyless fallback). */
  whyAsked: (name: ProviderName) => string | undefined
  /** No engine is configured (only keyless sources may answer). */
  noEngine: boolean
  /** The strategy's sub-queries, as many as `maxCalls` allows with every active provider asking each. */
  queries: string[]
  /** Config problems, resting providers, budgets nearly spent, dropped queries: in that order. */
  warnings: string[]
  /** Providers that would take part but rest after repeated failures (the response is partial). */
  resting: readonly ProviderName[]
}

/**
 * Enlists one search's providers: routes it, checks who can be called (emitting progress as each is activated or
 * stands in), and caps its queries. Throws `ConfigError` when no provider is configured, or when a broken config
 * file may be where the engine keys are (rather than quietly search keyless).
 */
export async function enlistProviders(
  layer: LayerForSearch,
  req: ParsedSearchRequest,
  strategy: Strategy,
  month: string,
  emit: (event: SearchProgress) => void,
): Promise<Enlistment> {
  const keyless = keylessSourcesEnabled({ env: layer.env, reading: layer.reading })
  const configProblems = relevantConfigProblems(layer)
  const warnings = configProblems.map((p) => p.message)
  const unavailable = unavailability(layer, strategy.mode, month, configProblems, keyless)
  const route = routeSearch(layer, req, strategy, keyless)
  if (route.fallback && configProblems.some((p) => p.severity === 'error'))
    throw noProviderError(layer, configProblems, keyless)
  // Fast and answer modes wait for their slots' engines: a typically far slower one gets a stand-in. Not for named
  // `sources` (the caller chose them) nor the keyless fallback plan.
  const standIns = !req.sources && !route.fallback && strategy.mode !== 'deep'
  const { roster, fallbacksOf } = await enlist(layer, route, req, unavailable, emit, standIns)
  const nothingToCall =
    roster.active.size === 0 ? explainNothingToCall(layer, roster, strategy, configProblems, keyless) : undefined
  warnings.push(...(nothingToCall?.warnings ?? []))
  const limitOf = (name: ProviderName) => layer.monthlyBudgets?.[name]
  const usedOf = (name: ProviderName) => layer.usage.get(name, month)
  warnings.push(...(await budgetWarnings(roster.active.keys(), strategy.queries.length, limitOf, usedOf)))
  const { queries, warning: capWarning } = capQueries(strategy.queries, roster.active.size, layer.maxCalls)
  if (capWarning) warnings.push(capWarning)
  const quickerStandIn = async (failed: ProviderName) =>
    standIns ? handOverChoice(layer, roster, failed, fallbacksOf, unavailable) : undefined
  return {
    roster,
    fallbacksOf,
    quickerStandIn,
    whyAsked: (name) => route.why[name],
    noEngine: route.noEngine,
    queries,
    warnings,
    resting: nothingToCall?.resting ?? [],
  }
}

/** Problems in env and config files that concern this layer's providers (not GitHub's token, say). */
function relevantConfigProblems({ env, definitions, reading }: LayerForSearch): ConfigProblem[] {
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
  layer: LayerForSearch,
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
function routeSearch(layer: LayerForSearch, req: ParsedSearchRequest, strategy: Strategy, keyless: boolean): Route {
  const { mode, classification } = strategy
  const allowed = (d: ResolvedProviderDefinition) => keyless || !needsNoKey(d)
  const noEngine = !layer.definitions.some(
    (d) => d.routing === 'engine' && allowed(d) && isConfigured(layer, d.id, mode),
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
    const routing = definition.routing
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
  layer: LayerForSearch,
  route: Route,
  req: ParsedSearchRequest,
  unavailable: (name: ProviderName) => Promise<string | undefined>,
  emit: (event: SearchProgress) => void,
  standIns: boolean,
) {
  const allowed = (name: ProviderName) => !req.sources || req.sources.includes(name)
  const fallbacksOf = (name: ProviderName) => (route.fallbacks[name] ?? []).filter(allowed)
  const roster = createRoster({ ids: layer.ids, notUsedReason: route.notUsedReason, fallbacksOf, unavailable, emit })
  // Each pool reads its keys' state from the store (a file, Redis) before its provider is activated: started together
  // the reads are one round trip (the file store shares one read), not one per provider in turn (~2 ms in the CLI).
  await Promise.all(route.primary.map((name) => layer.pools.get(name)?.refresh(layer.reading)))
  for (const name of route.primary) {
    const choice =
      standIns && !roster.tried.has(name) ? await standInFor(layer, roster, name, fallbacksOf, unavailable) : undefined
    if (!choice) {
      await roster.activate(name)
      continue
    }
    for (const skipped of choice.passedOver)
      roster.passOver(skipped.name, skipped.reason, skipped.name === name ? undefined : name)
    await roster.activate(choice.standIn, name)
  }
  return { roster, fallbacksOf }
}

// The slot of `name` is it and its stand-ins, less those this search already considered.
function standInFor(
  layer: LayerForSearch,
  roster: Roster,
  name: ProviderName,
  fallbacksOf: (name: ProviderName) => ProviderName[],
  unavailable: (name: ProviderName) => Promise<string | undefined>,
) {
  const slot = [name, ...fallbacksOf(name).filter((n) => !roster.tried.has(n))]
  if (slot.length < 2) return undefined
  return chooseStandIn(slot, standInFacts(layer, unavailable))
}

// After a call of `failed` failed, the slot is its stand-ins not yet considered, up to the first already taking part
// (that one gets the query: a primary has it, a stand-in is asked it).
function handOverChoice(
  layer: LayerForSearch,
  roster: Roster,
  failed: ProviderName,
  fallbacksOf: (name: ProviderName) => ProviderName[],
  unavailable: (name: ProviderName) => Promise<string | undefined>,
) {
  const slot: ProviderName[] = []
  for (const name of fallbacksOf(failed)) {
    if (roster.active.has(name)) break
    if (!roster.tried.has(name)) slot.push(name)
  }
  if (slot.length < 2) return undefined
  return chooseStandIn(slot, standInFacts(layer, unavailable))
}

function standInFacts(
  layer: LayerForSearch,
  unavailable: (name: ProviderName) => Promise<string | undefined>,
): StandInFacts {
  return {
    unavailable,
    latencyOf: (n) => layer.pools.get(n)?.latency(),
    typicalMsOf: (n) => definitionOf(layer, n).typicalLatencyMs,
    hasCapacity: (n) => layer.pools.get(n)?.hasCapacity(MIN_GRACE_MS) ?? false,
  }
}

/**
 * The notice for a search only keyless sources answered because no engine is configured: which answered, and the
 * engines' key variables to set for more (from their definitions). `undefined` when a keyed source answered too.
 */
export function keylessOnlyNotice(
  layer: LayerParts,
  reports: Record<ProviderName, ProviderReport>,
): KeylessOnlyNotice | undefined {
  const answered = layer.ids.filter((name) => reports[name]?.status === 'ok')
  if (answered.length === 0 || !answered.every((name) => needsNoKey(definitionOf(layer, name)))) return undefined
  const set = layer.definitions.filter((d) => d.routing === 'engine' && !d.keyless).map((d) => keyVariableHint(d))
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
  layer: LayerForSearch,
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

/** Why a provider has no usable key: its own misconfiguration, a broken file, or simply no key. */
function notConfiguredReason(layer: LayerParts, name: ProviderName, problems: readonly ConfigProblem[]): string {
  const errors = problems.filter((p) => p.severity === 'error' && p.services.includes(name))
  const own = errors.find((p) => p.services.length === 1)
  if (own) return `misconfigured: ${own.message}`
  const shared = errors[0]
  const hint = `set ${keyVariableHint(layer.definitions.find((d) => d.id === name)!)}`
  return shared ? `not configured: ${hint}, or fix the config file: ${shared.message}` : `not configured: ${hint}`
}

/** No provider is configured: what is broken in the configuration when something is, else which variables to set. */
function noProviderError(layer: LayerParts, configProblems: readonly ConfigProblem[], keyless: boolean): ConfigError {
  const keyVariables = layer.definitions
    .filter((d) => d.routing === 'engine' && !d.keyless)
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

/**
 * Keeps as many queries as `maxCalls` allows with `providers` asking each: trailing sub-queries go first (they are
 * the least important). Returns the warning to give when some were dropped.
 */
function capQueries(
  queries: readonly string[],
  providers: number,
  maxCalls: number,
): { queries: string[]; warning?: string } {
  const maxQueries = Math.max(1, Math.floor(maxCalls / Math.max(1, providers)))
  if (queries.length <= maxQueries) return { queries: [...queries] }
  return {
    queries: queries.slice(0, maxQueries),
    warning: `only the first ${maxQueries} of ${queries.length} queries were run (maxCallsPerRequest ${maxCalls})`,
  }
}

/** Warnings for providers this search takes to 75 % or 90 % of their monthly budget, before spending. */
async function budgetWarnings(
  providers: Iterable<string>,
  calls: number,
  limitOf: (name: string) => number | undefined,
  usedOf: (name: string) => Promise<number>,
): Promise<string[]> {
  const warnings: string[] = []
  for (const name of providers) {
    const limit = limitOf(name)
    if (limit === undefined) continue
    const used = await usedOf(name)
    const share = (used + calls) / limit
    if (share >= 0.9) warnings.push(`${name}: ${used} of ${limit} monthly calls used (≥90%)`)
    else if (share >= 0.75) warnings.push(`${name}: ${used} of ${limit} monthly calls used (≥75%)`)
  }
  return warnings
}
