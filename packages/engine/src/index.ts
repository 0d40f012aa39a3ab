export { createSearchLayer, cacheKey, DEFAULT_RATE_LIMITS, CACHE_TTL_MS, PARTIAL_CACHE_TTL_MS } from './engine.js'
export type { SearchLayer, SearchLayerOptions, SearchCallOptions, ProviderStatus } from './engine.js'
export { searchRequestSchemaFor, SearchWaitSchema, PatienceMsSchema, MAX_PATIENCE_MS } from './request.js'
export { SearchRequestSchema } from './search-request-schema.js'
export type { SearchRequest, ParsedSearchRequest } from './request.js'
export type {
  SearchResponse,
  SearchResultOut,
  ProviderReport,
  SearchProgress,
  OperatorReport,
  KeylessOnlyNotice,
} from './response.js'
export { createMemoryCache, createFileCache, defaultCacheDir } from './cache.js'
export type { CacheStore } from './cache.js'
export { createMemoryUsageStore, createFileUsageStore, monthOf } from './budget.js'
export type { UsageStore } from './budget.js'
export {
  builtInProviders,
  planSources,
  planFallback,
  verticalsFor,
  queryLanguage,
  needsNoKey,
  INTENT_VERTICALS,
  LANGUAGE_VERTICALS,
  rankByCapability,
  answerPreference,
  SOURCE_MATRIX,
} from './registry.js'
export type { SourcePlan, VerticalChoice } from './registry.js'
export type { RateLimit } from './_rate-limit.js'
export type { CircuitState, CircuitOptions } from './_circuit.js'
export type { KeyStatus } from './_key-pool.js'
export {
  createMemoryKeyStateStore,
  createFileKeyStateStore,
  createOneShotKeyStateStore,
  parseKeyState,
  KeyStateSchema,
} from './key-state-store.js'
export type {
  KeyState,
  KeyStateStore,
  KeyStateProblemLog,
  LearnedLimits,
  OneShotKeyStateStore,
} from './key-state-store.js'
export { formatLatency } from './_latency.js'
export type { LatencySummary, LatencyQuantile, LearnedLatency, LatencySample } from './_latency.js'
export { streamSearch, describePlan } from './stream.js'
export type { SearchStreamEvent, SearchPlan, PlannedEngine } from './stream.js'
