import type { MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import type { AppEnv } from '../context.js'
import { errorJson } from '../errors.js'

/** Answers 413 in the server's error shape to a request body over `maxBytes` (read or declared). */
export function requestBodyLimit({ maxBytes }: { maxBytes: number }): MiddlewareHandler<AppEnv> {
  return bodyLimit({
    maxSize: maxBytes,
    onError: (c) => errorJson(c, 'body_too_large', `Request body is larger than ${maxBytes} bytes`),
  })
}
