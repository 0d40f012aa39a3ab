export { createBraveProvider } from './client.js'
export type { BraveProviderOptions } from './client.js'
export {
  buildBraveQuery,
  buildBraveQueryText,
  mapBraveResults,
  mapBraveError,
  parseBraveResponse,
  parseBraveRateLimit,
  toBraveCountry,
  toBraveFreshness,
  toBraveLanguage,
  BRAVE_MAX_COUNT,
} from './map.js'
export type { BraveQueryOptions, MappedResults } from './map.js'
export { BraveSearchResponseSchema, BraveWebResultSchema, BraveErrorSchema, BraveSearchQuerySchema } from './schema.js'
export type { BraveSearchResponse, BraveWebResult, BraveError, BraveSearchQuery } from './schema.js'
