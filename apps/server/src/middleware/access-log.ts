import { redactSecrets } from '@search-layer/core'
import type { MiddlewareHandler } from 'hono'
import type { Logger } from 'pino'
import type { Metrics } from '../prometheus-metrics.js'
import type { AppEnv } from '../request-env.js'

/** Options of `accessLog`. */
export interface AccessLogOptions {
  logger: Logger
  metrics: Metrics
}

/** Logs one line per request and counts it in the HTTP metrics, errors and refusals included. */
export function accessLog({ logger, metrics }: AccessLogOptions): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now()
    // Routes served before authentication (health, the web app) are logged as anonymous.
    c.set('who', 'anonymous')
    await next()
    const route = c.res.status === 404 && c.req.routePath === '/*' ? '(unmatched)' : c.req.routePath
    const seconds = (performance.now() - started) / 1000
    metrics.requests.inc({ route, method: c.req.method, status: String(c.res.status) })
    metrics.latency.observe({ route }, seconds)
    logger.info(
      {
        reqId: c.get('requestId'),
        method: c.req.method,
        path: redactSecrets(c.req.path),
        status: c.res.status,
        ms: Math.round(seconds * 1000),
        who: c.get('who'),
      },
      'request',
    )
  }
}
