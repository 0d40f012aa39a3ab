import { type Env, type Provider, defineProvider, requestJson } from '@search-layer/core'
import { githubDefinition } from './definition.js'
import {
  type GithubSearchKind,
  buildGithubQuery,
  githubSearchKind,
  mapGithubError,
  mapGithubIssues,
  mapGithubRepositories,
  parseGithubRateLimit,
} from './map.js'
import { GithubSearchResponseSchema } from './schema.js'

/** Options of `createGithubProvider`; every field is optional and the token/URL are read at call time. */
export interface GithubProviderOptions {
  /** Token; wins over `GITHUB_TOKEN`/`GH_TOKEN`. Optional: without one GitHub allows 10 searches a minute, 30 with. */
  token?: string
  /** Base URL (default `https://api.github.com`, or `GITHUB_API_URL`). */
  baseUrl?: string
  /** Force `repositories` or `issues`; by default issues for bug/status queries. */
  kind?: GithubSearchKind
  /** Time allowed per attempt (ms). Default 8000. */
  timeoutMs?: number
  /** Retries after the first attempt for retryable failures. Default 2 (core's default). */
  retries?: number
  /** Where the token is read from when the call context has no `env`; default `process.env`. */
  env?: Env
  /** Largest response accepted (bytes). Default 4 MiB (100 repositories are about 500 KB). */
  maxBytes?: number
}

const DEFAULT_MAX_BYTES = 4 * 1024 * 1024

/**
 * Creates the GitHub search provider (repositories; issues for bug and status queries). Works without a token.
 * `search()` rejects only with `ProviderError` (`config`, `auth`, `rate_limited`, `timeout`, `network`, `upstream`,
 * `bad_response`).
 */
export function createGithubProvider(options: GithubProviderOptions = {}): Provider {
  const { timeoutMs = 8000, maxBytes = DEFAULT_MAX_BYTES } = options
  return defineProvider({
    definition: githubDefinition,
    overrides: { apiKey: options.token, baseUrl: options.baseUrl },
    env: options.env,
    async run({ request, apiKey, service, http, now }) {
      const kind = githubSearchKind(request.query, options.kind)
      const response = await requestJson({
        ...http,
        service: 'github',
        url: `${service.baseUrl}/search/${kind}`,
        method: 'GET',
        query: buildGithubQuery(kind, request, now),
        headers: {
          accept: 'application/vnd.github+json',
          'x-github-api-version': '2022-11-28',
          // GitHub refuses requests without a User-Agent.
          'user-agent': 'search-layer',
          ...(apiKey && { authorization: `Bearer ${apiKey}` }),
        },
        schema: GithubSearchResponseSchema,
        timeoutMs,
        maxBytes,
        ...(options.retries !== undefined && { retries: options.retries }),
        mapError: (res) => mapGithubError(res, apiKey ? [apiKey] : [], now.getTime()),
      })
      const { results, dropped } =
        kind === 'issues' ? mapGithubIssues(response.data, request) : mapGithubRepositories(response.data, request)
      const rateLimit = parseGithubRateLimit(response.headers)
      return { results, dropped, cost: { usd: 0, basis: 'estimated' }, ...(rateLimit && { rateLimit }) }
    },
  })
}
