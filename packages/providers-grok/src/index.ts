export { grokDefinition, GROK_DEFAULT_MODEL } from './definition.js'
export { createGrokProvider } from './client.js'
export type { GrokProviderOptions, GrokMode } from './client.js'
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
  GROK_WEB_SEARCH_USD_PER_CALL,
} from './map.js'
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
