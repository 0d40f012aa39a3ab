export { bochaDefinition } from './definition.js'
export { createBochaProvider } from './client.js'
export type { BochaProviderOptions } from './client.js'
