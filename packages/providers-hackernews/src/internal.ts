// Unstable: the pure pieces behind the provider (request builders, response mappers, error mapping, zod schemas of
// the vendor's wire format), for tests, the bench and third parties who replay vendor bodies. They follow the
// vendor's API and may change in any release; the stable surface is the package's main entry.
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
