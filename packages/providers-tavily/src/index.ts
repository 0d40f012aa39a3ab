export { tavilyDefinition } from './definition.js'
export { createTavilyProvider } from './client.js'
export type { TavilyProviderOptions } from './client.js'
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
