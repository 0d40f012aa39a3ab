// Unstable: the pure pieces behind the provider (request builders, response mappers, error mapping, zod schemas of
// the vendor's wire format), for tests, the bench and third parties who replay vendor bodies. They follow the
// vendor's API and may change in any release; the stable surface is the package's main entry.
export {
  bochaCodeError,
  bochaFreshness,
  buildBochaBody,
  mapBochaError,
  mapBochaResults,
  BOCHA_MAX_COUNT,
} from './map.js'
export type { BochaSearchBody, MappedResults } from './map.js'
export { BochaErrorSchema, BochaSearchResponseSchema, BochaWebPageSchema } from './schema.js'
export type { BochaError, BochaSearchResponse, BochaWebPage } from './schema.js'
