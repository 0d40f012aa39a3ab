export { wikipediaDefinition } from './definition.js'
export { createWikipediaProvider } from './client.js'
export type { WikipediaProviderOptions } from './client.js'
export {
  buildWikipediaQuery,
  mapWikipediaHttpError,
  mapWikipediaResults,
  wikipediaApiError,
  wikipediaArticleUrl,
  wikipediaBaseUrl,
  wikipediaLanguages,
  WIKIPEDIA_MAX_RESULTS,
} from './map.js'
export type { MappedResults, WikipediaQuery } from './map.js'
export { WikipediaApiErrorSchema, WikipediaSearchHitSchema, WikipediaSearchResponseSchema } from './schema.js'
export type { WikipediaApiError, WikipediaSearchHit, WikipediaSearchResponse } from './schema.js'
