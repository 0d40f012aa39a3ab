export { githubDefinition } from './definition.js'
export { createGithubProvider } from './client.js'
export type { GithubProviderOptions } from './client.js'
