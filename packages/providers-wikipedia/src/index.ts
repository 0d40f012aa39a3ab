export { wikipediaDefinition } from './definition.js'
export { createWikipediaProvider } from './client.js'
export type { WikipediaProviderOptions } from './client.js'
