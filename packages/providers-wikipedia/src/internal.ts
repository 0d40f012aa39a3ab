// Unstable: the pure pieces behind the provider (request builders, response mappers, error mapping, zod schemas of
// the vendor's wire format), for tests, the bench and third parties who replay vendor bodies. They follow the
// vendor's API and may change in any release; the stable surface is the package's main entry.
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
