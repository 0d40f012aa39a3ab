// Unstable: the pure pieces behind the provider (request builders, response mappers, error mapping, zod schemas of
// the vendor's wire format), for tests, the bench and third parties who replay vendor bodies. They follow the
// vendor's API and may change in any release; the stable surface is the package's main entry.
export {
  buildTavilyRequest,
  mapTavilyResponse,
  mapTavilyError,
  rateLimitFromHeaders,
  TAVILY_MAX_RESULTS,
} from './map.js'
export type { TavilySearchDepth, TavilyTopic, TavilyRequestSettings } from './map.js'
export { tavilyCountry, TAVILY_COUNTRY_CODES } from './countries.js'
export {
  TavilySearchRequestSchema,
  TavilySearchResponseSchema,
  TavilyResultSchema,
  TavilyErrorSchema,
} from './schema.js'
export type { TavilySearchRequest, TavilySearchResponse, TavilyResult, TavilyError } from './schema.js'
