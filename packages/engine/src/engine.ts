import {
  ConfigError,
  type ConfigProblem,
  type Env,
  type Intent,
  type Mode,
  type Provider,
  type ProviderDefinition,
  ProviderError,
  type ProviderName,
  checkProviderDefinitions,
  inspectConfig,
  isProviderError,
  keyVariableHint,
  parseInput,
  checkCassetteConfig,
} from '@search-layer/core'
import { setMaxListeners } from 'node:events'
import { expandQuery } from '@search-layer/expand'
import { type IntentClassification, classifyIntent, strategyFor } from '@search-layer/intent'
import { type CallOutcome, assembleResults } from './_assemble.js'
import { describeOperators, readSearchOperators } from './_operators.js'
import type { CircuitOptions, CircuitState } from './_circuit.js'
import { KeyPool, type KeyStatus } from './_key-pool.js'
import type { RateLimit } from './_rate-limit.js'
import { type KeyStateStore, createMemoryKeyStateStore } from './key-state.js'
import { type UsageStore, createMemoryUsageStore, monthOf } from './budget.js'
import { type CacheStore, createMemoryCache } from './cache.js'
import { answerPreference, builtInProviders, planSources } from './registry.js'
import { type ParsedSearchRequest, type SearchRequest, searchRequestSchemaFor } from './request.js'
import type { ProviderReport, SearchProgress, SearchResponse } from './response.js'
import { type SearchStreamEvent, describePlan, streamSearch } from './stream.js'

/** The built-in providers' default rate limits (each definition's `rateLimit`), by id. */
export const DEFAULT_RATE_LIMITS: Readonly<Record<ProviderName, RateLimit>> = Object.fromEntries(
  builtInProviders.map((d) => [d.id, { ...d.rateLimit }]),
)

/** Cache lifetimes by intent: news goes stale in minutes, evergreen answers last a day. */
export const CACHE_TTL_MS: Record<Intent | 'none', number> = {
  news: 10 * 60_000,
  status: 60 * 60_000,
  none: 60 * 60_000,
  factual: 24 * 60 * 60_000,
  comparison: 24 * 60 * 60_000,
  tutorial: 24 * 60 * 60_000,
  exploratory: 24 * 60 * 60_000,
  resource: 24 * 60 * 60_000,
}
/** A response some providers failed to contribute to is kept only briefly. */
export const PARTIAL_CACHE_TTL_MS = 60_000

export interface SearchLayerOptions {
  /** Where provider keys are read from (at call time). Default `process.env`. */
  env?: Env
  /**
   * The sources this layer may use; default `builtInProviders`. Add a plug-in with `[...builtInProviders, mine]`.
   * Validated at creation: a malformed definition or a duplicated id is a `ConfigError`.
   */
  providers?: readonly ProviderDefinition[]
  /** Per-attempt timeout handed to each built-in provider (ms). Default 8000. */
  providerTimeoutMs?: number
  /** Retries inside one provider call (the overall deadline still applies). Default 1. */
  providerRetries?: number
  /** Per-provider token buckets; `false` turns rate limiting off. */
  rateLimits?: Partial<Record<ProviderName, Partial<RateLimit>>> | false
  circuit?: Partial<CircuitOptions>
  /** Response cache; `false` disables it. Default an in-memory LRU. */
  cache?: CacheStore | false
  /** Most provider calls one search may make. Default 24. */
  maxCallsPerRequest?: number
  /** Monthly call budgets per provider, counted in `usage`. */
  monthlyBudgets?: Partial<Record<ProviderName, number>>
  usage?: UsageStore
  /**
   * Where each key's learned limits and rests are kept (by the key's hash): a file for the CLI, Redis for servers.
   * Default in memory.
   */
  keyState?: KeyStateStore
  /** The clock (epoch ms), for tests. */
  now?: () => number
}

export interface SearchCallOptions {
  signal?: AbortSignal
  onProgress?: (event: SearchProgress) => void
  /** Stream events of the run this call starts: the plan, results re-ranked as each provider answers. See `stream`. */
  onStream?: (event: SearchStreamEvent) => void
}

/** Provider health for status pages and agents. */
export interface ProviderStatus {
  name: ProviderName
  configured: boolean
  circuit: CircuitState
  budget?: { month: string; used: number; limit: number }
  /** Each configured key (one entry `no key` for a provider that needs none): rest, pace, what the vendor said. */
  keys: KeyStatus[]
}

export interface SearchLayer {
  /** Runs one search. Throws `InputError` for a bad request and `ConfigError` when no provider can be used. */
  search(request: SearchRequest, options?: SearchCallOptions): Promise<SearchResponse>
  /** Which providers are configured, resting or over budget. */
  status(): Promise<ProviderStatus[]>
  /**
   * Runs one search as events: the plan, provider progress, results re-ranked as each provider answers, then the
   * response. Throws (while iterating) what `search` throws.
   */
  stream(request: SearchRequest, options?: Omit<SearchCallOptions, 'onStream'>): AsyncIterable<SearchStreamEvent>
  /** The providers this layer was built with (validated), in registry order. */
  readonly providers: readonly ProviderDefinition[]
}

// Scoring, with the public-suffix list its authority table needs, is the biggest module a search uses only
// after the providers answer: it loads while they are on the wire, so a one-shot process (the CLI) does not
// compile and evaluate it before its first request. A long-running process loads it once.
let scoringModule: Promise<typeof import('@search-layer/scoring')> | undefined
const loadScoring = () => (scoringModule ??= import('@search-layer/scoring'))

const toProviderError = (provider: ProviderName, error: unknown): ProviderError =>
  isProviderError(error)
    ? error
    : new ProviderError(`${provider} failed unexpectedly: ${(error as Error)?.message ?? String(error)}`, {
        kind: 'bad_response',
        provider,
        cause: error,
      })

/**
 * Creates the search layer: classify → expand → parallel provider calls → merge → score,
 * with a cache, single-flight, rate limits, circuit breakers, budgets and one overall deadline.
 */
export function createSearchLayer(options: SearchLayerOptions = {}): SearchLayer {
  const env = options.env ?? process.env
  const now = options.now ?? Date.now
  const secondsUntil = (until: number | undefined) => Math.max(0, Math.ceil(((until ?? now()) - now()) / 1000))
  const cache = options.cache === false ? undefined : (options.cache ?? createMemoryCache())
  const usage = options.usage ?? createMemoryUsageStore()
  const maxCalls = options.maxCallsPerRequest ?? 24
  const circuitOptions: CircuitOptions = {
    failureThreshold: 3,
    cooldownMs: 30_000,
    maxCooldownMs: 5 * 60_000,
    ...options.circuit,
  }
  const definitions = checkProviderDefinitions(options.providers ?? builtInProviders)
  const ids = definitions.map((d) => d.id)
  const definitionOf = new Map(definitions.map((d) => [d.id, d]))
  const sourcePlans = planSources(definitions)
  const answerOrder = answerPreference(definitions)
  const requestSchema = searchRequestSchemaFor(ids)
  const keyState = options.keyState ?? createMemoryKeyStateStore()
  const pools = new Map(
    definitions.map((d) => [
      d.id,
      new KeyPool({
        definition: d,
        rateLimit: options.rateLimits === false ? undefined : { ...d.rateLimit, ...options.rateLimits?.[d.id] },
        circuit: circuitOptions,
        store: keyState,
        env,
        now,
      }),
    ]),
  )
  const inflight = new Map<string, Promise<SearchResponse>>()

  const common = { env, timeoutMs: options.providerTimeoutMs ?? 8000, retries: options.providerRetries ?? 1 }
  const plain = new Map(definitions.map((d) => [d.id, instantiate(d, common)]))
  // Answer mode asks providers that can write an answer for one (Tavily's include_answer).
  const answering = new Map(
    definitions
      .filter((d) => d.capabilities.includes('answer'))
      .map((d) => [d.id, instantiate(d, { ...common, includeAnswer: true })]),
  )
  const providerFor = (name: ProviderName, mode: Mode): Provider =>
    (mode === 'answer' ? answering.get(name) : undefined) ?? plain.get(name)!
  const keyHint = (name: ProviderName) => keyVariableHint(definitionOf.get(name)!)

  async function status(): Promise<ProviderStatus[]> {
    const month = monthOf(new Date(now()))
    return Promise.all(
      ids.map(async (name) => {
        const limit = options.monthlyBudgets?.[name]
        const keys = await pools.get(name)!.status()
        return {
          name,
          configured: providerFor(name, 'deep').isConfigured(env),
          circuit: pools.get(name)!.state(),
          keys,
          ...(limit !== undefined && { budget: { month, used: await usage.get(name, month), limit } }),
        }
      }),
    )
  }

  async function search(request: SearchRequest, callOptions: SearchCallOptions = {}): Promise<SearchResponse> {
    const started = now()
    // Cassette settings that cannot work (both variables set, an empty replay directory) are one configuration
    // error, not a failure per provider.
    checkCassetteConfig(env)
    const req = parseInput(requestSchema, request, 'search request')
    const key = cacheKey(req)
    if (req.cache && cache) {
      const hit = (await cache.get(key)) as SearchResponse | undefined
      if (hit) return { ...hit, cached: true, timing: { total_ms: now() - started } }
    }
    let shared = inflight.get(key)
    if (!shared) {
      shared = run(req, callOptions.onProgress, callOptions.onStream).finally(() => inflight.delete(key))
      inflight.set(key, shared)
    }
    const response = await raceSignal(shared, callOptions.signal)
    if (req.cache && cache && !response.cached) {
      const allFailed = Object.values(response.providers).every((p) => p.status !== 'ok')
      if (!allFailed) {
        const ttl = response.partial ? PARTIAL_CACHE_TTL_MS : CACHE_TTL_MS[response.intent ?? 'none']
        await cache.set(key, response, ttl)
      }
    }
    return response
  }

  async function run(
    req: ParsedSearchRequest,
    onProgress?: (event: SearchProgress) => void,
    onStream?: (event: SearchStreamEvent) => void,
  ): Promise<SearchResponse> {
    const started = now()
    const deadlineAt = started + req.deadlineMs
    const emit = (event: SearchProgress) => {
      try {
        onProgress?.(event)
      } catch {
        // A broken progress listener must not break the search.
      }
      send({ type: 'progress', progress: event, elapsed_ms: now() - started })
    }
    const send = (event: SearchStreamEvent) => {
      try {
        onStream?.(event)
      } catch {
        // Nor a broken stream listener.
      }
    }
    // Operators (site:, after:, "phrase"…) become filters; the words left are what is classified and searched.
    const operators = readSearchOperators(req, new Date(now()))
    const baseQuery = operators.baseQuery
    const warnings: string[] = [...operators.warnings]

    // 1. Intent and strategy. Explicit mode without intent keeps the original skill's v1 behaviour: no scoring.
    const intentSetting = req.intent ?? (req.mode ? 'none' : 'auto')
    let classification: IntentClassification | null = null
    if (intentSetting === 'auto') classification = classifyIntent(baseQuery)
    else if (intentSetting !== 'none') {
      const row = strategyFor(intentSetting)
      classification = {
        intent: row.intent,
        mode: row.mode,
        freshness: row.freshness,
        weights: row.weights,
        confidence: 1,
        uncertain: false,
        signals: [],
      }
    }
    const intent = classification?.intent ?? null
    const mode: Mode = req.mode ?? classification?.mode ?? 'deep'
    const freshness = operators.dateRange ?? req.freshness ?? classification?.freshness ?? null

    // 2. Sub-queries.
    let queries: string[]
    if (operators.queries) queries = [...new Set(operators.queries)]
    else if (classification) {
      queries = expandQuery(baseQuery, classification, {
        maxQueries: req.maxQueries,
        now: () => new Date(now()),
      }).queries.map((q) => q.query)
      if (queries.length === 0) queries = [baseQuery]
    } else queries = [baseQuery]

    // 3. Who takes part.
    const reports = Object.fromEntries(
      ids.map((name) => [
        name,
        { status: 'skipped', results: 0, ms: 0, calls: 0, reason: `not used in ${mode} mode` } as ProviderReport,
      ]),
    ) as Record<ProviderName, ProviderReport>
    const matrix = sourcePlans[mode]
    const allowed = (name: ProviderName) => !req.sources || req.sources.includes(name)
    const primary = req.sources ? req.sources : matrix.primary
    const fallbacksOf = (name: ProviderName) => (matrix.fallbacks[name] ?? []).filter(allowed)
    const month = monthOf(new Date(started))

    // Problems in env and config files that concern this layer's providers (not GitHub's token, say).
    const configProblems = inspectConfig({ env, services: definitions }).problems.filter((p) =>
      p.services.some((service) => definitionOf.has(service)),
    )
    for (const problem of configProblems) warnings.push(problem.message)
    const unavailable = async (name: ProviderName): Promise<string | undefined> => {
      if (!providerFor(name, mode).isConfigured(env)) return notConfiguredReason(name, keyHint(name), configProblems)
      // Another run or server instance may have rested this provider's keys.
      await pools.get(name)!.refresh()
      const circuit = pools.get(name)!.state()
      if (circuit.open)
        return `cooling down for ${secondsUntil(circuit.until)}s after repeated failures (last: ${circuit.lastError?.kind ?? 'unknown'})`
      const limit = options.monthlyBudgets?.[name]
      if (limit !== undefined && (await usage.get(name, month)) >= limit)
        return `monthly budget of ${limit} calls used up (raise monthlyBudgets.${name})`
      return undefined
    }

    const active = new Map<ProviderName, ProviderName | undefined>() // provider → who it stands in for
    const tried = new Set<ProviderName>()
    const activate = async (name: ProviderName, standIn?: ProviderName): Promise<boolean> => {
      if (tried.has(name)) return active.has(name)
      tried.add(name)
      const reason = await unavailable(name)
      if (reason) {
        reports[name] = {
          status: 'skipped',
          results: 0,
          ms: 0,
          calls: 0,
          reason,
          ...(standIn && { fallback_for: standIn }),
        }
        emit({ type: 'skipped', provider: name, reason })
        for (const next of fallbacksOf(name)) if (await activate(next, name)) break
        return false
      }
      active.set(name, standIn)
      reports[name] = { status: 'ok', results: 0, ms: 0, calls: 0, ...(standIn && { fallback_for: standIn }) }
      return true
    }
    for (const name of primary) await activate(name)
    const keyVariables = definitions
      .filter((d) => !d.keyless)
      .map((d) => keyVariableHint(d))
      .join(', ')
    let resting: ProviderName[] = []
    if (active.size === 0) {
      const configured = ids.filter((n) => providerFor(n, mode).isConfigured(env))
      if (configured.length === 0) {
        const errors = configProblems.filter((p) => p.severity === 'error').map((p) => p.message)
        throw new ConfigError(
          errors.length
            ? `no search provider is usable: ${errors.join(' ')} Keys can also come from ${keyVariables}.`
            : `no search provider is configured: set at least one of ${keyVariables} (or add keys to ~/.config/search-layer/config.json)`,
          errors.length === 1 ? configErrorOrigin(configProblems.find((p) => p.severity === 'error')!) : {},
        )
      }
      // Nothing to call because every provider this search could use is resting: say so, and until when.
      resting = [...tried].filter((name) => pools.get(name)!.isOpen())
      for (const name of resting) {
        const circuit = pools.get(name)!.state()
        warnings.push(
          `${name} is resting after repeated failures (last: ${circuit.lastError?.kind ?? 'unknown'}); it will be retried in ${secondsUntil(circuit.until)} s, at ${new Date(circuit.until ?? now()).toISOString()}`,
        )
      }
    }

    // Budget monthly usage warnings before spending.
    for (const name of active.keys()) {
      const limit = options.monthlyBudgets?.[name]
      if (limit === undefined) continue
      const used = await usage.get(name, month)
      const share = (used + queries.length) / limit
      if (share >= 0.9) warnings.push(`${name}: ${used} of ${limit} monthly calls used (≥90%)`)
      else if (share >= 0.75) warnings.push(`${name}: ${used} of ${limit} monthly calls used (≥75%)`)
    }

    // Cap calls per request: drop trailing sub-queries first (they are the least important).
    const maxQueries = Math.max(1, Math.floor(maxCalls / Math.max(1, active.size)))
    if (queries.length > maxQueries) {
      warnings.push(
        `only the first ${maxQueries} of ${queries.length} queries were run (maxCallsPerRequest ${maxCalls})`,
      )
      queries = queries.slice(0, maxQueries)
    }

    if (onStream)
      send(
        describePlan({
          req,
          baseQuery,
          intentSetting,
          classification,
          mode,
          freshness,
          queries,
          reports,
          active,
          fallbacksOf,
          warnings,
        }),
      )

    // 4. Fan out: every (query × provider) call starts now, limited only by each provider's own rate limit.
    const controller = new AbortController()
    // Each call waiting in its provider's rate-limit queue listens on this signal until it gets its slot: up to
    // maxCallsPerRequest listeners at once is the design (above Node's default warning threshold of 10).
    setMaxListeners(Math.max(10, maxCalls + 4), controller.signal)
    const outcomes: CallOutcome[] = []
    let pending = 0
    let finish: () => void = () => {}
    const allDone = new Promise<void>((resolve) => {
      finish = resolve
    })
    const launched = new Set<string>()
    let callsMade = 0

    const launch = (name: ProviderName, query: string) => {
      const id = `${name}\u0000${query}`
      if (launched.has(id)) return
      if (callsMade >= maxCalls) {
        warnings.push(`${name} was not asked "${query}": maxCallsPerRequest ${maxCalls} reached`)
        return
      }
      launched.add(id)
      callsMade++
      pending++
      void callProvider(name, query).finally(() => {
        if (--pending === 0) finish()
      })
    }

    const callProvider = async (name: ProviderName, query: string): Promise<void> => {
      const t0 = now()
      emit({ type: 'started', provider: name, query })
      try {
        // The pool picks the key, holds it to its pace and circuit, and retries once on another key.
        const response = await pools.get(name)!.call({ deadlineAt, signal: controller.signal }, async (keyCall) => {
          if (options.monthlyBudgets?.[name] !== undefined) await usage.increment(name, month, 1)
          return providerFor(name, mode).search(
            {
              query,
              num: req.num,
              ...(freshness && { freshness }),
              ...operators.providerFields,
            },
            { signal: controller.signal, deadlineAt, env, now: () => new Date(now()), ...keyCall },
          )
        })
        const ms = now() - t0
        outcomes.push({
          provider: name,
          query,
          results: response.results,
          ms,
          ...(response.answer && { answer: response.answer }),
          ...(response.cost && { cost: { usd: response.cost.usd, credits: response.cost.credits } }),
        })
        emit({ type: 'done', provider: name, query, results: response.results.length, ms })
        if (onStream) {
          // Ranked from what had arrived by now, even when scoring is still loading.
          const sofar = outcomes.slice()
          void scoring.then((module) => streamResults(sofar, module))
        }
      } catch (caught) {
        const error = toProviderError(name, caught)
        const ms = now() - t0
        outcomes.push({ provider: name, query, error, ms })
        emit({ type: 'failed', provider: name, query, kind: error.kind, message: error.message, ms })
        // The mode's stand-in takes over this query (and is activated for later ones).
        if (!controller.signal.aborted) {
          for (const next of fallbacksOf(name)) {
            if (active.has(next) && active.get(next) === undefined) break // already a primary: it has this query
            if (await activate(next, name)) {
              launch(next, query)
              break
            }
          }
        }
      }
    }

    const scoring = loadScoring()
    const assembleContext = () => ({
      req,
      baseQuery,
      queries,
      classification,
      now: new Date(now()),
      providers: ids,
      answerOrder,
      ...(operators.kinds.length > 0 && { filters: operators.filters }),
    })
    // Each answer re-ranks everything received so far, so a stream shows the fastest provider's results first.
    const streamResults = (sofar: CallOutcome[], module: typeof import('@search-layer/scoring')) => {
      const answered = [...new Set(sofar.filter((o) => o.results).map((o) => o.provider))]
      const { enforcement: _counted, ...assembled } = assembleResults(sofar, assembleContext(), module)
      send({
        type: 'results',
        ...assembled,
        answered,
        elapsed_ms: now() - started,
      })
    }
    for (const name of [...active.keys()]) for (const query of queries) launch(name, query)
    let timer: NodeJS.Timeout | undefined
    const deadline = new Promise<'deadline'>((resolve) => {
      timer = setTimeout(() => resolve('deadline'), Math.max(0, deadlineAt - now()))
    })
    const ended = pending === 0 ? 'done' : await Promise.race([allDone.then(() => 'done' as const), deadline])
    clearTimeout(timer)
    if (ended === 'deadline') controller.abort(new Error('search deadline reached'))

    // 5. Reports per provider.
    for (const name of active.keys()) {
      const mine = outcomes.filter((o) => o.provider === name)
      const okCalls = mine.filter((o) => o.results)
      const failed = mine.filter((o) => o.error)
      const unanswered = [...launched].filter((id) => id.startsWith(`${name}\u0000`)).length - mine.length
      const report = reports[name]!
      report.calls = mine.length + unanswered
      report.results = okCalls.reduce((n, o) => n + o.results!.length, 0)
      report.ms = mine.length ? Math.max(...mine.map((o) => o.ms)) : now() - started
      const usd = okCalls.reduce((n, o) => n + (o.cost?.usd ?? 0), 0)
      const credits = okCalls.reduce((n, o) => n + (o.cost?.credits ?? 0), 0)
      if (usd || credits)
        report.cost = { ...(usd && { usd: Math.round(usd * 1e6) / 1e6 }), ...(credits && { credits }) }
      if (okCalls.length === 0) {
        report.status = 'error'
        const last = failed.at(-1)?.error
        report.error = last
          ? { kind: last.kind, message: last.message }
          : { kind: 'timeout', message: `${name} did not answer before the ${req.deadlineMs} ms deadline` }
      } else if (failed.length || unanswered) {
        const last = failed.at(-1)?.error
        report.error = last
          ? { kind: last.kind, message: `${failed.length} of ${report.calls} calls failed: ${last.message}` }
          : { kind: 'timeout', message: `${unanswered} of ${report.calls} calls did not answer before the deadline` }
      }
    }

    for (const name of active.keys()) warnings.push(...pools.get(name)!.warnings())

    // 6. Merge, dedupe, score.
    const { results, enforcement, ...answer } = assembleResults(outcomes, assembleContext(), await scoring)
    const operatorReport = describeOperators(operators, [...active.keys()], definitionOf, enforcement)
    const partial = resting.length > 0 || [...active.keys()].some((name) => reports[name]!.error !== undefined)

    return {
      query: baseQuery,
      mode,
      intent,
      intent_source: intentSetting === 'auto' ? 'auto' : intentSetting === 'none' ? 'none' : 'explicit',
      ...(classification &&
        intentSetting === 'auto' && { confidence: classification.confidence, signals: classification.signals }),
      queries,
      count: results.length,
      results,
      ...answer,
      freshness_filter: freshness,
      ...(operatorReport && { operators: operatorReport }),
      providers: reports,
      partial,
      cached: false,
      warnings: [...new Set(warnings)],
      timing: { total_ms: now() - started },
    }
  }

  return {
    search,
    status,
    providers: definitions,
    stream: (request, callOptions) => streamSearch(search, request, callOptions),
  }
}

/** Why a provider has no usable key: its own misconfiguration, a broken file, or simply no key. */
function notConfiguredReason(name: ProviderName, keyVariable: string, problems: readonly ConfigProblem[]): string {
  const errors = problems.filter((p) => p.severity === 'error' && p.services.includes(name))
  const own = errors.find((p) => p.services.length === 1)
  if (own) return `misconfigured: ${own.message}`
  const shared = errors[0]
  const hint = `set ${keyVariable}`
  return shared ? `not configured: ${hint}, or fix the config file: ${shared.message}` : `not configured: ${hint}`
}

const configErrorOrigin = (problem: ConfigProblem) => ({
  ...(problem.file !== undefined && { file: problem.file }),
  ...(problem.field !== undefined && { field: problem.field }),
  ...(problem.variable !== undefined && { variable: problem.variable }),
})

// A plug-in's create() is checked once, here, so a broken one fails at start-up with its id, not mid-search.
function instantiate(definition: ProviderDefinition, options: Parameters<ProviderDefinition['create']>[0]): Provider {
  let provider: Provider
  try {
    provider = definition.create(options)
  } catch (error) {
    throw new ConfigError(
      `provider "${definition.id}": create() threw: ${(error as Error)?.message ?? String(error)}`,
      {
        cause: error,
      },
    )
  }
  const shaped =
    provider !== null &&
    typeof provider === 'object' &&
    typeof provider.search === 'function' &&
    typeof provider.isConfigured === 'function'
  if (!shaped)
    throw new ConfigError(
      `provider "${definition.id}": create() must return { name, isConfigured(env), search(request, ctx) }`,
    )
  if (provider.name !== definition.id)
    throw new ConfigError(
      `provider "${definition.id}": create() returned a provider named "${String(provider.name)}"; it must be "${definition.id}"`,
    )
  return provider
}

function normaliseQuery(q: string): string {
  return q.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim()
}

/** The cache and single-flight key: everything that changes the answer, normalised. */
export function cacheKey(req: ParsedSearchRequest): string {
  const sorted = (list?: readonly string[]) => (list ? [...list].sort() : undefined)
  return JSON.stringify({
    v: 1,
    q: req.query ? normaliseQuery(req.query) : undefined,
    qs: req.queries?.map(normaliseQuery),
    mode: req.mode,
    intent: req.intent,
    freshness: req.freshness,
    num: req.num,
    boost: sorted(req.domainBoost),
    inc: sorted(req.includeDomains),
    exc: sorted(req.excludeDomains),
    src: sorted(req.sources),
    maxQueries: req.maxQueries,
    explain: req.explain,
  })
}

function raceSignal<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
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
