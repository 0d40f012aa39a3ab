// Unstable: the pure pieces behind the provider (request builders, response mappers, error mapping, zod schemas of
// the vendor's wire format), for tests, the bench and third parties who replay vendor bodies. They follow the
// vendor's API and may change in any release; the stable surface is the package's main entry.
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
