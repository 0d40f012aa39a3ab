// Unstable: the pure pieces behind the provider (request builders, response mappers, error mapping, zod schemas of
// the vendor's wire format), for tests, the bench and third parties who replay vendor bodies. They follow the
// vendor's API and may change in any release; the stable surface is the package's main entry.
export {
  buildStackExchangeQuery,
  mapStackExchangeError,
  mapStackExchangeResults,
  stackExchangeRateLimit,
  STACKEXCHANGE_MAX_PAGE_SIZE,
} from './map.js'
export type { MappedResults, StackExchangeQuery } from './map.js'
export { StackExchangeErrorSchema, StackExchangeQuestionSchema, StackExchangeResponseSchema } from './schema.js'
export type { StackExchangeError, StackExchangeQuestion, StackExchangeResponse } from './schema.js'
