export { grokDefinition, GROK_DEFAULT_MODEL } from './definition.js'
export { createGrokProvider } from './client.js'
export type { GrokProviderOptions, GrokMode } from './client.js'
