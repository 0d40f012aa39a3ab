export { stackexchangeDefinition } from './definition.js'
export { createStackExchangeProvider } from './client.js'
export type { StackExchangeProviderOptions } from './client.js'
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
