import type { Context, MiddlewareHandler } from 'hono'
import type { Authenticator } from '../authenticator.js'
import type { AppEnv } from '../request-env.js'
import { errorJson } from '../error-responses.js'

/** Paths open without a key: load balancers and orchestrators probe them. */
export const PUBLIC_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz'])

/** The two halves of bearer-key auth; the client rate limit goes between them. */
export interface ApiKeyAuth {
  /** Names the caller (`who`) from its bearer key without refusing anyone yet. */
  identifyCaller: MiddlewareHandler<AppEnv>
  /** Answers 401 with a `WWW-Authenticate` challenge when auth is on and `identifyCaller` found no valid key. */
  requireApiKey: MiddlewareHandler<AppEnv>
  /** Whether `identifyCaller` found a valid key for this request (`who` is then the key's name). */
  isIdentified(c: Context): boolean
}

/**
 * Bearer-key auth in two steps, so callers with a bad key are counted by the client rate limit before they are
 * refused: guessing keys is rate-limited too.
 */
export function apiKeyAuth(auth: Authenticator): ApiKeyAuth {
  const identified = new WeakSet<Context>()
  const needsKey = (path: string) => auth.enabled && !PUBLIC_PATHS.has(path)
  return {
    isIdentified: (c) => identified.has(c),
    identifyCaller: async (c, next) => {
      const who = needsKey(c.req.path) ? auth.identify(c.req.header('authorization')) : undefined
      if (who) {
        c.set('who', who)
        identified.add(c)
      }
      await next()
    },
    requireApiKey: async (c, next) => {
      if (needsKey(c.req.path) && !identified.has(c)) {
        c.header('WWW-Authenticate', 'Bearer realm="search-layer"')
        return errorJson(c, 'unauthorized', 'Missing or invalid API key: send Authorization: Bearer <key>')
      }
      await next()
    },
  }
}
