export { stackexchangeDefinition } from './definition.js'
export { createStackExchangeProvider } from './client.js'
export type { StackExchangeProviderOptions } from './client.js'
