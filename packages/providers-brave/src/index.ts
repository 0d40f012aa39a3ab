export { braveDefinition } from './definition.js'
export { createBraveProvider } from './client.js'
export type { BraveProviderOptions } from './client.js'
