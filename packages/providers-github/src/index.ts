export { githubDefinition } from './definition.js'
export { createGithubProvider } from './client.js'
export type { GithubProviderOptions } from './client.js'
export {
  buildGithubQuery,
  githubDateQualifier,
  githubSearchKind,
  mapGithubError,
  mapGithubIssues,
  mapGithubRepositories,
  parseGithubRateLimit,
  GITHUB_MAX_PER_PAGE,
} from './map.js'
export type { GithubSearchKind, MappedResults } from './map.js'
export {
  GithubErrorSchema,
  GithubIssueItemSchema,
  GithubRepositoryItemSchema,
  GithubSearchResponseSchema,
} from './schema.js'
export type { GithubError, GithubIssueItem, GithubRepositoryItem, GithubSearchResponse } from './schema.js'
