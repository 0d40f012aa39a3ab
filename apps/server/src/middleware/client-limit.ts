import type { Context, MiddlewareHandler } from 'hono'
import type { ClientLimiter } from '../client-limiter.js'
import type { Metrics } from '../prometheus-metrics.js'
import type { AppEnv } from '../request-env.js'
import { errorJson } from '../error-responses.js'

/** Paths never counted: probes and scrapers must not eat a client's budget or be refused. */
const UNLIMITED_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz', '/metrics'])

/** Options of `clientRateLimit`. */
export interface ClientRateLimitOptions {
  limiter: ClientLimiter
  /** Requests per client per window; 0 turns the limit off. */
  limit: number
  windowMs: number
  metrics: Metrics
  /** Whether the caller presented a valid key: then it is counted by key name, else by address. */
  isIdentified(c: Context): boolean
}

/**
 * Counts each request against its client (the API-key identity, else the peer address), sets the `RateLimit-*`
 * headers and answers 429 with `Retry-After` past the limit.
 */
export function clientRateLimit({
  limiter,
  limit,
  windowMs,
  metrics,
  isIdentified,
}: ClientRateLimitOptions): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (limit <= 0 || UNLIMITED_PATHS.has(c.req.path)) return next()
    const client = isIdentified(c) ? `key:${c.get('who')}` : `ip:${c.env?.incoming?.socket?.remoteAddress ?? 'local'}`
    const verdict = await limiter.hit(client)
    c.header('RateLimit-Limit', String(verdict.limit))
    c.header('RateLimit-Remaining', String(verdict.remaining))
    c.header('RateLimit-Reset', String(Math.ceil(verdict.resetMs / 1000)))
    if (!verdict.allowed) {
      metrics.rateLimited.inc({})
      const retryAfter = Math.max(1, Math.ceil(verdict.resetMs / 1000))
      c.header('Retry-After', String(retryAfter))
      return errorJson(
        c,
        'rate_limited',
        `Rate limit of ${verdict.limit} requests per ${windowMs / 1000} s reached; retry in ${retryAfter} s`,
      )
    }
    return next()
  }
}
