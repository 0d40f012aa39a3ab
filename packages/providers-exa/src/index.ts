export { exaDefinition } from './definition.js'
export { createExaProvider } from './client.js'
export type { ExaProviderOptions } from './client.js'
