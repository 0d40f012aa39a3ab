export { hackernewsDefinition } from './definition.js'
export { createHackerNewsProvider } from './client.js'
export type { HackerNewsProviderOptions } from './client.js'
