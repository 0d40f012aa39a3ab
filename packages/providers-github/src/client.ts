import { type Provider, type ProviderCreateOptions, defineProvider, isProviderError } from '@search-layer/core'
import { type HttpResponse, createSelfThrottle, requestJson } from '@search-layer/core/http'
import { githubService } from './service.js'
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

/**
 * Options of `createGithubProvider`: core's `ProviderCreateOptions` (`timeoutMs` default 8000, `retries` core's
 * default 2, `env` default `process.env`) plus GitHub's own. Every field is optional; the token and URL are read
 * at call time.
 */
export interface GithubProviderOptions extends ProviderCreateOptions {
  /** Token; wins over `GITHUB_TOKEN`/`GH_TOKEN`. Optional: without one GitHub allows 10 searches a minute, 30 with. */
  token?: string
  /** Base URL (default `https://api.github.com`, or `GITHUB_API_URL`). */
  baseUrl?: string
  /** Force `repositories` or `issues`; by default issues for bug/status queries. */
  kind?: GithubSearchKind
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
  const throttle = createSelfThrottle({
    provider: 'github',
    code: 'rate_limit_wait',
    reason: 'search limit still in force',
    clock,
  })
  return defineProvider({
    definition: githubService,
    overrides: { apiKey: options.token, baseUrl: options.baseUrl },
    env: options.env,
    async run({ request, apiKey, service, http, now }) {
      throttle.check()
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
        if (isProviderError(error) && error.kind === 'rate_limited') throttle.hold(error.retryAfterMs)
        throw error
      }
      const { results, dropped } =
        kind === 'issues' ? mapGithubIssues(response.data, request) : mapGithubRepositories(response.data, request)
      const rateLimit = parseGithubRateLimit(response.headers, now.getTime())
      // The last search of the window went through: the next would be refused until the reset.
      if (rateLimit?.remaining === 0) throttle.hold(rateLimit.resetMs)
      return { results, dropped, cost: { usd: 0, basis: 'estimated' }, ...(rateLimit && { rateLimit }) }
    },
  })
}
