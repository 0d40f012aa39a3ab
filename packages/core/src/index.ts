// `@search-layer/core`: the provider contract. The request and response schemas, the `Provider` interface, the
// errors every provider rejects with, `ProviderDefinition` and `defineProvider`, and the helpers a provider's mapping
// uses. The machinery lives on subpaths: `./http`, `./config`, `./testing` (see the README).
export {
  IntentSchema,
  INTENTS,
  ModeSchema,
  MODES,
  MAX_QUERY_CHARS,
  ProviderNameSchema,
  FreshnessWindowSchema,
  DateRangeSchema,
  FreshnessSchema,
  ProviderRequestSchema,
} from './schemas.js'
export { SearchResultSchema, CostSchema, RateLimitInfoSchema, ProviderResponseSchema } from './response-schemas.js'
export { HttpUrlSchema } from './url-schema.js'
export type {
  Intent,
  Mode,
  ProviderName,
  FreshnessWindow,
  DateRange,
  Freshness,
  ProviderRequest,
  ParsedProviderRequest,
} from './schemas.js'
export type { SearchResult, Cost, RateLimitInfo, ProviderResponse } from './response-schemas.js'
export type { Env, Provider, ProviderContext, UpstreamResponseMeta } from './provider.js'
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
export {
  PROVIDER_CAPABILITIES,
  PROVIDER_ROUTINGS,
  PROVIDER_DEFINITION_DEFAULTS,
  resolveProviderDefinition,
  validateProviderDefinition,
  checkProviderDefinitions,
  keyVariableHint,
  registeredProviderIdSchema,
} from './provider-definition.js'
export type {
  ProviderCapability,
  ProviderRouting,
  ProviderDefinition,
  ResolvedProviderDefinition,
  ResolvedProviderEnv,
  ServiceDefinition,
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
export { lazySchema } from './lazy-schema.js'
export type { ProviderCall, DefineProviderOptions } from './define-provider.js'
export { collectResults } from './collect-results.js'
export { checkProviderResponse, RESULT_LIMITS } from './check-results.js'
export type { CheckedResponse, RejectReason } from './check-results.js'
export { safeParseJson } from './safe-parse-json.js'
export { parseResponseShape } from './response-shape.js'
export type { ResultPlace, CollectResultsOptions } from './collect-results.js'
