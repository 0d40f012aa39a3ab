// Unstable: the pure pieces behind the provider (request builders, response mappers, error mapping, zod schemas of
// the vendor's wire format), for tests, the bench and third parties who replay vendor bodies. They follow the
// vendor's API and may change in any release; the stable surface is the package's main entry.
export {
  buildResponsesRequest,
  buildChatRequest,
  mapResponsesBody,
  mapChatBody,
  readChatBody,
  extractJsonResults,
  mapGrokError,
  estimateGrokCost,
  stripCitationMarkers,
  sentenceAround,
  titleFromUrl,
  filterByDomain,
  rateLimitFromHeaders,
} from './map.js'
export { GROK_WEB_SEARCH_USD_PER_CALL } from './definition.js'
export type { GrokBuildSettings, GrokMapOptions } from './map.js'
export { isTimeSensitive, neutraliseQuery, responsesPrompt, chatPrompt, QUERY_TAG } from './prompt.js'
export type { PromptParts } from './prompt.js'
export {
  GrokResponsesRequestSchema,
  GrokChatRequestSchema,
  GrokWebSearchToolSchema,
  GrokResponsesResponseSchema,
  GrokUrlCitationSchema,
  GrokOutputTextSchema,
  GrokMessageItemSchema,
  GrokUsageSchema,
  GrokChatCompletionSchema,
  GrokChatResultSchema,
  GrokErrorSchema,
} from './schema.js'
export type {
  GrokResponsesRequest,
  GrokChatRequest,
  GrokWebSearchTool,
  GrokResponsesResponse,
  GrokUrlCitation,
} from './schema.js'
