import {
  ConfigError,
  type Env,
  type Intent,
  type Mode,
  type Provider,
  type ProviderDefinition,
  type ResolvedProviderDefinition,
  type ProviderName,
  checkProviderDefinitions,
  parseInput,
} from '@search-layer/core'
import { keylessSourcesEnabled } from '@search-layer/core/config'
import { DEFAULT_MAX_KEY_REST_MS, MAX_TIMER_MS, type LlmEndpoint, type PaceStore } from '@search-layer/core/http'
import { checkCassetteConfig } from '@search-layer/core/testing'
import type { PageFetchOptions } from '@search-layer/evidence'
import type { CircuitOptions, CircuitState } from './_circuit.js'
import { createFlights } from './_flights.js'
import { KeyPool, type KeyStatus } from './_key-pool.js'
import type { LatencySummary } from './_latency.js'
import type { RateLimit } from './_rate-limit.js'
import type { LayerParts } from './_layer.js'
import { type UsageStore, createMemoryUsageStore, monthOf } from './budget.js'
import { type CacheStore, createMemoryCache } from './cache.js'
import { type KeyStateStore, createMemoryKeyStateStore } from './key-state-store.js'
import { answerPreference, builtInProviders, needsNoKey, planFallback, planSources } from './registry.js'
import { type ParsedSearchRequest, type SearchRequest, searchRequestSchemaFor } from './request.js'
import type { SearchProgress, SearchResponse } from './response.js'
import { type SearchStreamEvent, streamSearch } from './stream.js'

// The built-in definitions are validated by their own packages' tests; a layer only checks plug-ins.
const BUILT_IN: ReadonlySet<unknown> = new Set(builtInProviders)

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
  /**
   * The longest a key rests on a vendor's word (`Retry-After`, a window's or a quota's reset) or on a stored rest
   * (ms, 1 000 to 2 147 483 647). Default `SEARCH_LAYER_MAX_KEY_REST_MS` in `env`, else one hour.
   */
  maxKeyRestMs?: number
  /** Response cache; `false` disables it. Default an in-memory LRU. */
  cache?: CacheStore | false
  /** Most provider calls one search may make. Default 24. */
  maxCallsPerRequest?: number
  /**
   * What becomes of engine calls still running when a search settles (`wait: "settled"`). `cancel` (default, for a
   * one-shot process such as the CLI): they are cut off. `finish` (for a server): they run on in the background,
   * up to the search's deadline and call cap, and the response with their results replaces the cached one, so the
   * next identical search gets the full set; a stream gets their results, then an `update` event.
   */
  lateCalls?: 'cancel' | 'finish'
  /** Monthly call budgets per provider, counted in `usage`. */
  monthlyBudgets?: Partial<Record<ProviderName, number>>
  usage?: UsageStore
  /**
   * Where each key's learned limits and rests are kept (by the key's hash): a file for the CLI, Redis for servers.
   * Default in memory.
   */
  keyState?: KeyStateStore
  /**
   * Request slots shared by everything using the store, for calls made with no key (each source at its pace) and
   * for providers that pace themselves (DuckDuckGo). Default: none for the key pools (their local buckets pace this
   * process) and the process-wide `processPaceStore` for providers; a server passes one in Redis so its instances
   * keep one pace together.
   */
  paceStore?: PaceStore
  /**
   * Who classifies a query the intent rules are unsure of: an OpenAI-compatible endpoint, `true` for the one in
   * `SEARCH_LAYER_LLM_URL`/`_KEY`/`_MODEL`, `false` for the rules alone. Default: `SEARCH_LAYER_INTENT_LLM=on` in
   * `env` turns the `SEARCH_LAYER_LLM_*` model on; off otherwise, since it is asked before any engine (at most
   * 1.5 s, a fifth of the deadline).
   */
  intentModel?: LlmEndpoint | boolean
  /**
   * page-fetch options for reading results (`read`): e.g. `allowHosts: ['intranet.example']` for one trusted
   * self-hosted host. Private and loopback addresses are refused unless allowed here or by
   * `SEARCH_LAYER_ALLOW_PRIVATE_HOSTS=1` in `env`.
   */
  pageFetch?: PageFetchOptions
  /** The clock (epoch ms), for tests. */
  now?: () => number
}

export interface SearchCallOptions {
  signal?: AbortSignal
  onProgress?: (event: SearchProgress) => void
  /** Stream events of the run this call starts: the plan, results re-ranked as each provider answers. See `stream`. */
  onStream?: (event: SearchStreamEvent) => void
  /**
   * Once, when every call the run this call starts has its request on the wire (or as soon as one call ends) and
   * the search's own work for that moment is done: the answers are at least a round trip away, so work of the
   * caller's own can run then without delaying a request. Not called for an answer from the cache or a search
   * that joins an identical one already running.
   */
  onCallsSent?: () => void
}

/** Provider health for status pages and agents. */
export interface ProviderStatus {
  name: ProviderName
  configured: boolean
  circuit: CircuitState
  budget?: { month: string; used: number; limit: number }
  /** Each configured key (one entry `no key` for a provider that needs none): rest, pace, what the vendor said. */
  keys: KeyStatus[]
  /** How long its calls took lately, over all its keys: what ordering and stand-ins go by. */
  latency?: LatencySummary
}

export interface SearchLayer {
  /**
   * Runs one search. Throws `InputError` for a bad request and `ConfigError` when no provider can be used. A request
   * this layer's `parseRequest` returned is not validated again.
   */
  search(request: SearchRequest, options?: SearchCallOptions): Promise<SearchResponse>
  /**
   * Validates a request against this layer's schema (its `sources` must be registered here) and fills its defaults,
   * as `search` does; throws `InputError` naming each bad field. For callers that need the parsed request first (a
   * server's cache key for cross-instance single-flight): handing the result to `search` validates it only once.
   */
  parseRequest(request: SearchRequest): ParsedSearchRequest
  /** Which providers are configured, resting or over budget. */
  status(): Promise<ProviderStatus[]>
  /**
   * Runs one search as events: the plan, provider progress, results re-ranked as each provider answers, then the
   * response. Throws (while iterating) what `search` throws.
   */
  stream(request: SearchRequest, options?: Omit<SearchCallOptions, 'onStream'>): AsyncIterable<SearchStreamEvent>
  /** The providers this layer was built with (validated, their defaults applied), in registry order. */
  readonly providers: readonly ResolvedProviderDefinition[]
  /**
   * The store this layer keeps responses and read pages (`page:v1:<url>`) in; absent when built with `cache: false`.
   * A caller reading pages of its own (`readEvidence({ cache })`) shares it, so a page is fetched once.
   */
  readonly cache?: CacheStore
}

/**
 * Creates the search layer: classify → expand → parallel provider calls → merge → score,
 * with a cache, single-flight, rate limits, circuit breakers, budgets and one overall deadline.
 */
export function createSearchLayer(options: SearchLayerOptions = {}): SearchLayer {
  const env = options.env ?? process.env
  const now = options.now ?? Date.now
  const cache = options.cache === false ? undefined : (options.cache ?? createMemoryCache())
  const usage = options.usage ?? createMemoryUsageStore()
  const circuitOptions: CircuitOptions = {
    failureThreshold: 3,
    cooldownMs: 30_000,
    maxCooldownMs: 5 * 60_000,
    ...options.circuit,
    maxRestMs: maxKeyRestMs(options.maxKeyRestMs, env),
  }
  const definitions = checkProviderDefinitions(options.providers ?? builtInProviders, [], { trusted: BUILT_IN })
  const ids = definitions.map((d) => d.id)
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
        ...(options.paceStore && { pace: options.paceStore }),
      }),
    ]),
  )
  // Requests this layer parsed (`parseRequest`): `search` takes them as they are instead of validating them again.
  const parsedRequests = new WeakSet<object>()
  function parseRequest(request: SearchRequest): ParsedSearchRequest {
    const parsed = parseInput(requestSchema, request, 'search request')
    parsedRequests.add(parsed)
    return parsed
  }

  const common = {
    env,
    timeoutMs: options.providerTimeoutMs ?? 8000,
    retries: options.providerRetries ?? 1,
    ...(options.paceStore && { pace: options.paceStore }),
  }
  const plain = new Map(definitions.map((d) => [d.id, instantiate(d, common)]))
  // Answer mode asks providers that can write an answer for one (Tavily's include_answer).
  const answering = new Map(
    definitions
      .filter((d) => d.capabilities.includes('answer'))
      .map((d) => [d.id, instantiate(d, { ...common, includeAnswer: true })]),
  )
  const providerFor = (name: ProviderName, mode: Mode): Provider =>
    (mode === 'answer' ? answering.get(name) : undefined) ?? plain.get(name)!
  const state: LayerParts = {
    env,
    now,
    definitions,
    ids,
    sourcePlans: planSources(definitions),
    fallbackPlan: planFallback(definitions),
    answerOrder: answerPreference(definitions),
    providerFor,
    pools,
    usage,
    ...(options.monthlyBudgets && { monthlyBudgets: options.monthlyBudgets }),
    maxCalls: options.maxCallsPerRequest ?? 24,
    lateCalls: options.lateCalls ?? 'cancel',
    intentModel: options.intentModel,
    ...(cache && { cache }),
    ...(options.pageFetch && { pageFetch: options.pageFetch }),
  }

  const flights = createFlights(state, cache && ((key, response) => storeResponse(cache, key, response)))

  async function status(): Promise<ProviderStatus[]> {
    const month = monthOf(new Date(now()))
    const keylessOff = keylessSetting(env) === false
    return Promise.all(
      definitions.map(async (definition) => {
        const name = definition.id
        const limit = options.monthlyBudgets?.[name]
        // Read first: it refreshes the keys from the store, where another instance may have rested them.
        const keys = await pools.get(name)!.status()
        const latency = pools.get(name)!.latency()
        return {
          name,
          configured: !(keylessOff && needsNoKey(definition)) && providerFor(name, 'deep').isConfigured(env),
          circuit: pools.get(name)!.state(),
          keys,
          ...(latency && { latency }),
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
    const req = parsedRequests.has(request) ? (request as ParsedSearchRequest) : parseRequest(request)
    const key = cacheKey(req)
    if (req.cache && cache) {
      const hit = (await cache.get(key)) as SearchResponse | undefined
      // A search that waits for all takes no answer some engines were late for.
      if (hit && !(req.wait === 'all' && anyLate(hit)))
        return { ...hit, cached: true, timing: { total_ms: now() - started } }
    }
    return flights.run(key, req, callOptions)
  }

  const stream: SearchLayer['stream'] = (request, callOptions) => streamSearch(search, request, callOptions)
  return { search, parseRequest, status, stream, providers: definitions, ...(cache && { cache }) }
}

/** Keeps a response in the cache: briefly when it is partial in any way, for its intent's lifetime otherwise. */
async function storeResponse(cache: CacheStore, key: string, response: SearchResponse): Promise<void> {
  const allFailed = Object.values(response.providers).every((p) => p.status !== 'ok')
  if (allFailed) return
  const brief = response.partial || readsCutShort(response) || anyLate(response)
  await cache.set(key, response, brief ? PARTIAL_CACHE_TTL_MS : CACHE_TTL_MS[response.intent ?? 'none'])
}

// An answer some engines were late for lacks their results: kept briefly, and not for a search that waits for all.
const anyLate = (response: SearchResponse) =>
  Object.values(response.providers).some((p) => p.status === 'late' || p.late_calls !== undefined)

// Pages that ran out of time or network may be read next time: such an answer is kept only briefly.
const readsCutShort = (response: SearchResponse) =>
  response.reads?.some((r) => ['timeout', 'deadline', 'cancelled', 'network'].includes(r.kind)) ?? false

const MAX_KEY_REST_ENV = 'SEARCH_LAYER_MAX_KEY_REST_MS'

// Above Node's timer range a rest could not be waited out; below a second it would not spare the vendor anything.
function maxKeyRestMs(option: number | undefined, env: Env): number {
  const raw = option ?? env[MAX_KEY_REST_ENV]?.trim()
  if (raw === undefined || raw === '') return DEFAULT_MAX_KEY_REST_MS
  const ms = typeof raw === 'number' ? raw : /^\d+$/.test(raw) ? Number(raw) : Number.NaN
  if (Number.isInteger(ms) && ms >= 1000 && ms <= MAX_TIMER_MS) return ms
  const where = option === undefined ? `${MAX_KEY_REST_ENV}=${JSON.stringify(raw).slice(0, 40)}` : 'maxKeyRestMs'
  throw new ConfigError(
    `${where} must be a whole number of milliseconds from 1000 to ${MAX_TIMER_MS} (default 3600000)`,
    {
      ...(option === undefined && { variable: MAX_KEY_REST_ENV }),
    },
  )
}

// Status is for health pages: a malformed SEARCH_LAYER_KEYLESS is the search's error to report, not theirs.
function keylessSetting(env: Env): boolean | undefined {
  try {
    return keylessSourcesEnabled({ env })
  } catch {
    return undefined
  }
}

// A plug-in's create() is checked once, here, so a broken one fails at start-up with its id, not mid-search.
function instantiate(
  definition: ResolvedProviderDefinition,
  options: Parameters<ProviderDefinition['create']>[0],
): Provider {
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
    // Only a search that reads has it: the keys of every other search are as they were.
    ...(req.read && req.read.pages > 0 && { read: req.read }),
  })
}
