export { searxngDefinition } from './definition.js'
export { createSearxngProvider } from './client.js'
export type { SearxngProviderOptions } from './client.js'
