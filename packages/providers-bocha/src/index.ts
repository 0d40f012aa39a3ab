export { bochaDefinition } from './definition.js'
export { createBochaProvider } from './client.js'
export type { BochaProviderOptions } from './client.js'
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
