export { grokDefinition } from './definition.js'
export { GROK_DEFAULT_MODEL } from './service.js'
export { createGrokProvider } from './client.js'
export type { GrokProviderOptions, GrokMode } from './client.js'
