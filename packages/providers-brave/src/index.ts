export { braveDefinition } from './definition.js'
export { createBraveProvider } from './client.js'
export type { BraveProviderOptions } from './client.js'
export {
  buildBraveQuery,
  buildBraveQueryText,
  mapBraveResults,
  mapBraveError,
  describeBravePlan,
  parseBraveResponse,
  parseBraveRateLimit,
  toBraveCountry,
  toBraveFreshness,
  toBraveLanguage,
  BRAVE_MAX_COUNT,
} from './map.js'
export type { BraveQueryOptions, MappedResults } from './map.js'
export {
  BraveSearchResponseSchema,
  BraveWebResultSchema,
  BraveErrorSchema,
  BraveErrorMetaSchema,
  BraveSearchQuerySchema,
} from './schema.js'
export type { BraveSearchResponse, BraveWebResult, BraveError, BraveErrorMeta, BraveSearchQuery } from './schema.js'
