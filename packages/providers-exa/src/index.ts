export { exaDefinition } from './definition.js'
export { createExaProvider } from './client.js'
export type { ExaProviderOptions } from './client.js'
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
