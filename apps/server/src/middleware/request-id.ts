import { randomUUID } from 'node:crypto'
import type { MiddlewareHandler } from 'hono'
import type { AppEnv } from '../request-env.js'

/** What a caller may send as its own request id; anything else is replaced, so logs never carry arbitrary text. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/

/** Takes the caller's `x-request-id` (when well-formed) or a new UUID, and echoes it on the response. */
export function requestId(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const incoming = c.req.header('x-request-id')
    const id = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID()
    c.set('requestId', id)
    await next()
    c.res.headers.set('x-request-id', id)
  }
}
