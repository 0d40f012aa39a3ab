export { hackernewsDefinition } from './definition.js'
export { createHackerNewsProvider } from './client.js'
export type { HackerNewsProviderOptions } from './client.js'
export {
  buildHackerNewsQuery,
  hackerNewsEndpoint,
  hackerNewsItemUrl,
  hackerNewsNumericFilters,
  mapHackerNewsError,
  mapHackerNewsResults,
  HACKERNEWS_MAX_HITS,
} from './map.js'
export type { HackerNewsQuery, HackerNewsSort, MappedResults } from './map.js'
export { HackerNewsSearchResponseSchema, HackerNewsHitSchema, HackerNewsErrorSchema } from './schema.js'
export type { HackerNewsSearchResponse, HackerNewsHit, HackerNewsError } from './schema.js'
