// Unstable: the pure pieces behind the provider (request builders, response mappers, error mapping, zod schemas of
// the vendor's wire format), for tests, the bench and third parties who replay vendor bodies. They follow the
// vendor's API and may change in any release; the stable surface is the package's main entry.
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
