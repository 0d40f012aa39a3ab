// Unstable: the pure pieces behind the provider (request builders, response mappers, error mapping, zod schemas of
// the vendor's wire format), for tests, the bench and third parties who replay vendor bodies. They follow the
// vendor's API and may change in any release; the stable surface is the package's main entry.
export { buildSearxngQuery, mapSearxngError, mapSearxngResults, searxngTimeRange, SEARXNG_JSON_FIX } from './map.js'
export type { MappedResults, SearxngQuery } from './map.js'
export { SearxngResponseSchema, SearxngResultSchema } from './schema.js'
export type { SearxngResponse, SearxngResult } from './schema.js'
