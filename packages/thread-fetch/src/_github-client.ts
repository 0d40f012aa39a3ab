import { setTimeout as sleep } from 'node:timers/promises'
import { type Env, ProviderError } from '@search-layer/core'
import { resolveConfig } from '@search-layer/core/config'
import { type HttpErrorResponse, requestJson, resetDelayMs, timerMs, upstreamTimeAt } from '@search-layer/core/http'
import type { z } from 'zod'
import { readGhToken } from './_gh-token.js'
import { webHostOf } from './_github-url.js'
import { createLimiter } from './_limit.js'
import { DEFAULTS, type FetchThreadOptions } from './_options.js'

const SERVICE = 'github'
const MAX_RATE_LIMIT_WAITS = 3
const MAX_REDIRECTS = 3
// GitHub asks clients to wait at least a minute after a secondary limit that came without Retry-After.
const SECONDARY_DEFAULT_WAIT_MS = 60_000

export interface Ctx {
  baseUrl: string
  token?: string
  signal?: AbortSignal
  deadlineAt: number
  env: Env
  timeoutMs: number
  maxBytes: number
  limit: <T>(task: () => Promise<T>) => Promise<T>
  requests: number
  rateLimitWaits: number
  /** What the caller should know about a read that went on anyway (a pagination link that was not followed). */
  warnings: string[]
  rateLimit?: { limit?: number; remaining?: number; resetAt?: string }
}

/** Base URL and token for GitHub: options, env/config (core), then `gh`'s hosts.yml for the matching host only. */
export function githubAuth(options: FetchThreadOptions): { baseUrl: string; token?: string; tokenSource?: string } {
  const env = options.env ?? process.env
  const config = resolveConfig({
    env,
    ...(options.homeDir !== undefined && { homeDir: options.homeDir }),
    overrides: {
      github: {
        ...(options.githubToken && { apiKey: options.githubToken }),
        ...(options.githubBaseUrl && { baseUrl: options.githubBaseUrl }),
      },
    },
  }).github
  if (config.apiKey)
    return {
      baseUrl: config.baseUrl,
      token: config.apiKey,
      ...(config.apiKeySource && { tokenSource: config.apiKeySource }),
    }
  // gh's token belongs to one host: never send it to a base URL of another (a test server, a proxy).
  const host = webHostOf(config.baseUrl)
  const token = host
    ? readGhToken(host, { env, ...(options.homeDir !== undefined && { homeDir: options.homeDir }) })
    : undefined
  return { baseUrl: config.baseUrl, ...(token && { token, tokenSource: 'gh:hosts.yml' }) }
}

export function makeCtx(options: FetchThreadOptions, auth: { baseUrl: string; token?: string }): Ctx {
  return {
    baseUrl: auth.baseUrl.replace(/\/+$/, ''),
    ...(auth.token && { token: auth.token }),
    ...(options.signal && { signal: options.signal }),
    deadlineAt: Date.now() + (options.deadlineMs ?? DEFAULTS.deadlineMs),
    env: options.env ?? process.env,
    timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs,
    maxBytes: options.maxBytes ?? DEFAULTS.maxBytes,
    limit: createLimiter(options.concurrency ?? DEFAULTS.concurrency),
    requests: 0,
    rateLimitWaits: 0,
    warnings: [],
  }
}

export interface GhResponse<T> {
  data: T
  headers: Readonly<Record<string, string>>
  /** The URL that answered, after following GitHub's 301s for transferred or renamed resources. */
  url: string
}

/** One GitHub call (GET, or POST with `json` for GraphQL): follows 301/307 within the API origin, waits out rate limits that reset before the deadline. */
export async function ghGet<T>(
  ctx: Ctx,
  pathOrUrl: string,
  schema: z.ZodType<T>,
  query?: Record<string, number>,
  json?: unknown,
): Promise<GhResponse<T>> {
  let url = pathOrUrl.startsWith('http') ? pathOrUrl : `${ctx.baseUrl}${pathOrUrl}`
  // The token goes with every call: never to an origin other than the configured API's.
  if (!sameOrigin(url, ctx.baseUrl))
    throw new ProviderError(`Refusing to send a GitHub request outside ${originOf(ctx.baseUrl)}`, {
      kind: 'upstream',
      provider: SERVICE,
      code: 'other_origin',
      retryable: false,
    })
  for (let redirects = 0; ; ) {
    let location: string | undefined
    try {
      const res = await ctx.limit(() => {
        ctx.requests++
        return requestJson<T>({
          service: SERVICE,
          url,
          ...(query && { query }),
          ...(json !== undefined && { method: 'POST' as const, json }),
          headers: {
            accept: 'application/vnd.github+json',
            'x-github-api-version': '2022-11-28',
            'user-agent': 'search-layer-thread-fetch',
            ...(ctx.token && { authorization: `Bearer ${ctx.token}` }),
          },
          schema,
          timeoutMs: ctx.timeoutMs,
          maxBytes: ctx.maxBytes,
          deadlineAt: ctx.deadlineAt,
          ...(ctx.signal && { signal: ctx.signal }),
          env: ctx.env,
          secrets: [ctx.token],
          mapError: (r) => {
            if ([301, 302, 307, 308].includes(r.status) && r.headers.location) location = r.headers.location
            return mapGithubError(r, url, ctx.token)
          },
        })
      })
      noteRateLimit(ctx, res.headers)
      return { data: res.data, headers: res.headers, url }
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error
      if (location !== undefined && error.code === 'moved') {
        const next = new URL(location, url)
        if (next.origin !== new URL(ctx.baseUrl).origin || ++redirects > MAX_REDIRECTS) {
          throw new ProviderError(`GitHub redirected to another origin or too often (${next.origin}); not followed`, {
            kind: 'upstream',
            provider: SERVICE,
            status: error.status,
            code: 'moved',
            retryable: false,
          })
        }
        // The Location of a moved list keeps our query (page, per_page); drop it so `query` is not doubled.
        next.search = query ? '' : next.search
        url = next.toString()
        continue
      }
      if (error.kind === 'rate_limited') {
        const waitMs = error.retryAfterMs ?? SECONDARY_DEFAULT_WAIT_MS
        if (ctx.rateLimitWaits < MAX_RATE_LIMIT_WAITS && Date.now() + waitMs + 50 < ctx.deadlineAt) {
          ctx.rateLimitWaits++
          try {
            await sleep(timerMs(waitMs), undefined, ctx.signal ? { signal: ctx.signal } : undefined)
          } catch {
            throw new ProviderError('GitHub call was cancelled while waiting for the rate limit', {
              kind: 'timeout',
              provider: SERVICE,
              retryable: false,
            })
          }
          continue
        }
        throw new ProviderError(
          `${error.message}; the limit resets in ${Math.ceil(waitMs / 1000)}s, after the deadline${ctx.token ? '' : ' (set GITHUB_TOKEN or GH_TOKEN for 5000 requests/hour)'}`,
          {
            kind: 'rate_limited',
            provider: SERVICE,
            ...(error.status !== undefined && { status: error.status }),
            ...(error.code !== undefined && { code: error.code }),
            retryAfterMs: waitMs,
            retryable: true,
            secrets: [ctx.token],
          },
        )
      }
      throw error
    }
  }
}

export function noteRateLimit(ctx: Ctx, headers: Readonly<Record<string, string>>): void {
  const remaining = Number(headers['x-ratelimit-remaining'])
  if (!Number.isFinite(remaining)) return
  // A reset no date can hold (400 digits, year 9999) is left out rather than thrown from `toISOString`.
  const resetAt = upstreamTimeAt(Number(headers['x-ratelimit-reset']) * 1000, Date.now())
  ctx.rateLimit = {
    remaining,
    ...(Number.isFinite(Number(headers['x-ratelimit-limit'])) && { limit: Number(headers['x-ratelimit-limit']) }),
    ...(resetAt !== undefined && { resetAt: new Date(resetAt).toISOString() }),
  }
}

/** A GitHub error answer as a `ProviderError` that names what was read and never the token. */
export function mapGithubError(r: HttpErrorResponse, url: string, token: string | undefined): ProviderError {
  const message =
    typeof (r.json as { message?: unknown })?.message === 'string' ? (r.json as { message: string }).message : ''
  const what = describeApiUrl(url)
  const base = { provider: SERVICE, status: r.status, secrets: [token] }
  if ([301, 302, 307, 308].includes(r.status))
    return new ProviderError(`GitHub moved ${what}`, { ...base, kind: 'upstream', code: 'moved', retryable: false })
  const remaining = r.headers['x-ratelimit-remaining']
  const secondary = /secondary rate limit|abuse/i.test(message)
  if (r.status === 429 || (r.status === 403 && (remaining === '0' || secondary || r.retryAfterMs !== undefined))) {
    const resetText = r.headers['x-ratelimit-reset']?.trim()
    const resetMs = resetText ? resetDelayMs(Number(resetText), Date.now()) : undefined
    const untilReset = resetMs === undefined ? undefined : Math.max(1000, resetMs)
    const waitMs =
      r.retryAfterMs ?? (remaining === '0' && !secondary ? untilReset : undefined) ?? SECONDARY_DEFAULT_WAIT_MS
    return new ProviderError(
      `GitHub ${secondary ? 'secondary ' : ''}rate limit hit (HTTP ${r.status}) reading ${what}`,
      {
        ...base,
        kind: 'rate_limited',
        code: secondary ? 'secondary_rate_limit' : 'rate_limit',
        retryAfterMs: waitMs,
        // ghGet decides whether the wait fits in the deadline; requestJson must not retry on its own.
        retryable: false,
      },
    )
  }
  if (r.status === 401)
    return new ProviderError(`GitHub rejected the token (HTTP 401${message ? `: ${message}` : ''})`, {
      ...base,
      kind: 'auth',
    })
  if (r.status === 403)
    return new ProviderError(`GitHub refused access to ${what} (HTTP 403${message ? `: ${message}` : ''})`, {
      ...base,
      kind: 'auth',
    })
  if (r.status === 404)
    return new ProviderError(
      `GitHub has no ${what}: it is missing or private${token ? ' to this token' : ' (a token with access may help)'}`,
      { ...base, kind: 'upstream', code: 'not_found', retryable: false },
    )
  if (r.status === 410)
    return new ProviderError(`GitHub ${what} was deleted (HTTP 410)`, {
      ...base,
      kind: 'upstream',
      code: 'gone',
      retryable: false,
    })
  if (r.status >= 500)
    return new ProviderError(`GitHub server error (HTTP ${r.status}) reading ${what}`, { ...base, kind: 'upstream' })
  return new ProviderError(`GitHub refused ${what} (HTTP ${r.status}${message ? `: ${message}` : ''})`, {
    ...base,
    kind: 'upstream',
    retryable: false,
  })
}

function describeApiUrl(url: string): string {
  const m = /\/repos\/([^/]+)\/([^/]+)\/(issues|pulls)\/(\d+)(?:\/(\w+))?/.exec(url)
  if (!m) return 'the resource'
  return `${m[3] === 'pulls' ? 'pull request' : 'issue'} ${m[1]}/${m[2]}#${m[4]}${m[5] ? ` (${m[5]})` : ''}`
}

/** Whether `url` is on the same scheme, host and port as `base`; false for anything that does not parse. */
export function sameOrigin(url: string, base: string): boolean {
  const a = originOf(url)
  return a !== undefined && a === originOf(base)
}

export function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin
  } catch {
    return undefined
  }
}
