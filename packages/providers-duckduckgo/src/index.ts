export { duckduckgoDefinition } from './definition.js'
export { createDuckDuckGoProvider } from './client.js'
export type { DuckDuckGoProviderOptions } from './client.js'
