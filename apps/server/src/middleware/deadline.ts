import type { MiddlewareHandler } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { AppEnv } from '../request-env.js'

/**
 * Gives the request its cancel `signal`: aborted when the client goes away or after `timeoutMs`, when the request
 * ends with a 504 and its upstream calls are cancelled.
 */
export function requestDeadline({ timeoutMs }: { timeoutMs: number }): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const controller = new AbortController()
    // The response's 'close' before it finished means the client went away: stop spending provider calls on it.
    const outgoing = c.env?.outgoing
    outgoing?.once?.('close', () => {
      if (!outgoing.writableFinished) controller.abort(new Error('client closed the connection'))
    })
    c.set('signal', controller.signal)
    let timer: NodeJS.Timeout | undefined
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort(new Error('request timeout'))
        reject(new HTTPException(504, { message: `Request did not finish within ${timeoutMs} ms` }))
      }, timeoutMs)
    })
    try {
      await Promise.race([next(), timedOut])
    } finally {
      clearTimeout(timer)
    }
  }
}
