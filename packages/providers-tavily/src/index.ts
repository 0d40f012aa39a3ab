export { tavilyDefinition } from './definition.js'
export { createTavilyProvider } from './client.js'
export type { TavilyProviderOptions } from './client.js'
