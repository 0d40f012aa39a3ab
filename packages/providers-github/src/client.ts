import {
  DEFAULT_MAX_KEY_REST_MS,
  type Env,
  type HttpResponse,
  type Provider,
  ProviderError,
  defineProvider,
  isProviderError,
  requestJson,
  upstreamWaitMs,
} from '@search-layer/core'
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
import { type GithubSearchResponse, GithubSearchResponseSchema } from './schema.js'

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
  /** The clock the rate-limit wait is measured with; default `Date.now`. */
  clock?: () => number
}

const DEFAULT_MAX_BYTES = 4 * 1024 * 1024

/**
 * Creates the GitHub search provider (repositories; issues for bug and status queries). Works without a token.
 * After a rate limit (or the window's last search) it refuses calls as `rate_limited` until GitHub's wait has passed.
 * `search()` rejects only with `ProviderError` (`config`, `auth`, `rate_limited`, `timeout`, `network`, `upstream`,
 * `bad_response`).
 */
export function createGithubProvider(options: GithubProviderOptions = {}): Provider {
  const { timeoutMs = 8000, maxBytes = DEFAULT_MAX_BYTES, clock = Date.now } = options
  // NOTE(github): calls made while a limit is in force count against it, and repeated secondary-limit hits can get
  // the client blocked; until the wait GitHub asked for has passed, calls are refused here without a request.
  let blockedUntil = 0
  // GitHub's word is held to a key's longest default rest: a reset header tampered to 9999 must not block for years.
  const blockFor = (waitMs: number | undefined) => {
    const boundedMs = upstreamWaitMs(waitMs, DEFAULT_MAX_KEY_REST_MS)
    if (boundedMs !== undefined && boundedMs > 0) blockedUntil = Math.max(blockedUntil, clock() + boundedMs)
  }
  return defineProvider({
    definition: githubDefinition,
    overrides: { apiKey: options.token, baseUrl: options.baseUrl },
    env: options.env,
    async run({ request, apiKey, service, http, now }) {
      const waitMs = blockedUntil - clock()
      if (waitMs > 0)
        throw new ProviderError(`github search limit still in force; retry after ${Math.ceil(waitMs / 1000)}s`, {
          kind: 'rate_limited',
          provider: 'github',
          code: 'rate_limit_wait',
          retryAfterMs: waitMs,
        })
      const kind = githubSearchKind(request.query, options.kind)
      let response: HttpResponse<GithubSearchResponse>
      try {
        response = await requestJson({
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
      } catch (error) {
        if (isProviderError(error) && error.kind === 'rate_limited') blockFor(error.retryAfterMs)
        throw error
      }
      const { results, dropped } =
        kind === 'issues' ? mapGithubIssues(response.data, request) : mapGithubRepositories(response.data, request)
      const rateLimit = parseGithubRateLimit(response.headers, now.getTime())
      // The last search of the window went through: the next would be refused until the reset.
      if (rateLimit?.remaining === 0) blockFor(rateLimit.resetMs)
      return { results, dropped, cost: { usd: 0, basis: 'estimated' }, ...(rateLimit && { rateLimit }) }
    },
  })
}
