// `@search-layer/core/testing`: cassettes. With `SEARCH_LAYER_RECORD=<dir>` core's HTTP client writes each exchange
// to a file (keys scrubbed); with `SEARCH_LAYER_REPLAY=<dir>` it answers from those files and never opens a socket,
// which is how recorded vendor answers become tests. The engine checks these variables before a search.
export { resolveCassetteConfig, checkCassetteConfig, CASSETTE_RECORD_ENV, CASSETTE_REPLAY_ENV } from '../cassette.js'
export type { CassetteConfig, Cassette } from '../cassette.js'
