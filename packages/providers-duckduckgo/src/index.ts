export { duckduckgoDefinition } from './definition.js'
export { createDuckDuckGoProvider } from './client.js'
export type { DuckDuckGoProviderOptions } from './client.js'
export {
  buildDuckDuckGoQuery,
  duckDuckGoChallengeError,
  duckDuckGoDateFilter,
  duckDuckGoQueryText,
  duckDuckGoRegion,
  mapDuckDuckGoError,
  mapDuckDuckGoResults,
} from './map.js'
export type { DuckDuckGoQuery } from './map.js'
export { isDuckDuckGoChallenge, parseDuckDuckGoPage, unwrapDuckDuckGoUrl } from './parse.js'
export type { DuckDuckGoHit, DuckDuckGoPage } from './parse.js'
