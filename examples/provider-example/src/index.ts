import { exampleDefinition } from './definition.js'

// The plug-in contract: the default export is a ProviderDefinition (or an array of them).
export default exampleDefinition
export { exampleDefinition } from './definition.js'
export { createExampleProvider } from './client.js'
export type { ExampleProviderOptions } from './client.js'
