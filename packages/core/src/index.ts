export {
  IntentSchema,
  INTENTS,
  ModeSchema,
  MODES,
  ProviderNameSchema,
  FreshnessWindowSchema,
  DateRangeSchema,
  FreshnessSchema,
  SearchResultSchema,
  ProviderRequestSchema,
  CostSchema,
  RateLimitInfoSchema,
  ProviderResponseSchema,
} from './schemas.js'
export type {
  Intent,
  Mode,
  ProviderName,
  FreshnessWindow,
  DateRange,
  Freshness,
  SearchResult,
  ProviderRequest,
  ParsedProviderRequest,
  Cost,
  RateLimitInfo,
  ProviderResponse,
} from './schemas.js'
export type { Env, Provider, ProviderContext, UpstreamResponseMeta } from './provider.js'
export { splitApiKeys, apiKeyId, apiKeyLabel } from './api-keys.js'
export { readRateLimitHeaders, resetDelayMs, unusableWaitHeaders } from './rate-limit-headers.js'
export {
  upstreamWaitMs,
  upstreamTimeAt,
  timerMs,
  MAX_TIMER_MS,
  MAX_UPSTREAM_WAIT_MS,
  DEFAULT_MAX_KEY_REST_MS,
} from './upstream-wait.js'
export { createMemoryPaceStore, nextPaceSlot, processPaceStore } from './pace-store.js'
export { createSelfThrottle } from './self-throttle.js'
export type { SelfThrottle, SelfThrottleOptions } from './self-throttle.js'
export type { PaceRequest, PaceStore } from './pace-store.js'
export type { RateLimitReading } from './rate-limit-headers.js'
export {
  ProviderError,
  ConfigError,
  InputError,
  isProviderError,
  describesKeyRejection,
  PROVIDER_ERROR_KINDS,
} from './errors.js'
export type { ProviderErrorKind, ProviderErrorOptions, VendorLimits } from './errors.js'
export { redactSecrets, stripUrlCredentials, stripUrlCredentialsInText } from './redact.js'
export { resolveCassetteConfig, checkCassetteConfig, CASSETTE_RECORD_ENV, CASSETTE_REPLAY_ENV } from './cassette.js'
export type { CassetteConfig, Cassette } from './cassette.js'
export { timeoutSignal } from './timeout-signal.js'
export { requestJson, requestText, parseRetryAfter, errorFromStatus, retryHint, dispatcherFor } from './http.js'
export type { HttpRequestOptions, HttpResponse, HttpErrorResponse, HttpTextResponse } from './http.js'
export {
  resolveConfig,
  resolveServiceConfig,
  inspectConfig,
  describeConfig,
  validateConfigFile,
  readConfigFile,
  configFilePaths,
  ConfigFileSchema,
  configuredPlugins,
  keylessSourcesEnabled,
  readConfigFiles,
  GITHUB_SERVICE,
} from './config.js'
export type {
  ResolvedConfig,
  ResolveConfigOptions,
  ConfigOverrides,
  ConfigFile,
  ConfigSource,
  ServiceConfig,
  ServiceDescription,
  ConfigProblem,
  ConfigProblemKind,
  ConfigInspection,
  ServiceSpec,
  ResolveServicesOptions,
  ConfigReading,
  LoadedConfigFile,
} from './config.js'
export {
  PROVIDER_CAPABILITIES,
  PROVIDER_ROUTINGS,
  ProviderIdSchema,
  validateProviderDefinition,
  checkProviderDefinitions,
  keyVariableHint,
  registeredProviderIdSchema,
} from './provider-definition.js'
export { loadProviderPlugins } from './plugins.js'
export type { LoadProviderPluginsOptions } from './plugins.js'
export type {
  ProviderCapability,
  ProviderRouting,
  ProviderDefinition,
  ProviderEnvVariables,
  ProviderRateLimit,
  ProviderCostModel,
  ProviderCreateOptions,
} from './provider-definition.js'
export { parseInput, formatIssues, relevantIssues } from './validate.js'
export { canonicalUrl } from './canonical-url.js'
export {
  parseQueryOperators,
  queryWithOperators,
  queryWithSiteOperators,
  QueryFiltersSchema,
  QueryOperatorSchema,
  QUERY_FILTER_KINDS,
} from './query-operators.js'
export type { ParsedQuery, QueryFilters, QueryOperator, QueryFilterKind } from './query-operators.js'
export { plainText, httpUrl, isoDate, hostMatches, passesDomainFilters } from './text.js'
export { defineProvider, frozenRequest } from './define-provider.js'
export { lazyProvider } from './lazy-provider.js'
export type { ProviderCall, DefineProviderOptions } from './define-provider.js'
export { chatCompletion, llmEndpointFromEnv, extractJsonObject } from './llm.js'
export type { LlmEndpoint, ChatMessage, ChatCompletionOptions } from './llm.js'
export { collectResults } from './collect-results.js'
export { checkProviderResponse, RESULT_LIMITS } from './check-results.js'
export type { CheckedResponse, RejectReason } from './check-results.js'
export { safeParseJson } from './safe-parse-json.js'
export type { ResultPlace, CollectResultsOptions } from './collect-results.js'
