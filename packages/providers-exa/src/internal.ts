// Unstable: the pure pieces behind the provider (request builders, response mappers, error mapping, zod schemas of
// the vendor's wire format), for tests, the bench and third parties who replay vendor bodies. They follow the
// vendor's API and may change in any release; the stable surface is the package's main entry.
export {
  buildExaRequest,
  toExaDateWindow,
  parseExaResponse,
  mapExaResults,
  mapExaError,
  exaCost,
  parseExaRateLimit,
  EXA_MAX_RESULTS,
} from './map.js'
export type { ExaContents, ExaRequestOptions, MappedResults } from './map.js'
export {
  ExaSearchTypeSchema,
  ExaSearchRequestSchema,
  ExaResultSchema,
  ExaSearchResponseSchema,
  ExaErrorSchema,
} from './schema.js'
export type { ExaSearchType, ExaSearchRequest, ExaResult, ExaSearchResponse, ExaError } from './schema.js'
