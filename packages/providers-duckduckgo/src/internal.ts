// Unstable: the pure pieces behind the provider (request builders, response mappers, error mapping, zod schemas of
// the vendor's wire format), for tests, the bench and third parties who replay vendor bodies. They follow the
// vendor's API and may change in any release; the stable surface is the package's main entry.
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
