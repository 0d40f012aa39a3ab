import { formatIssues, redactSecrets } from '@search-layer/core'
import type { OpenAPIHonoOptions } from '@hono/zod-openapi'
import type { ErrorHandler, NotFoundHandler } from 'hono'
import type { Logger } from 'pino'
import type { AppEnv } from '../request-env.js'
import { describeError, errorJson } from '../error-responses.js'

/** Answers a request whose params, query or body fail the route's zod schema with 400 and the issues. */
export const validationHook: NonNullable<OpenAPIHonoOptions<AppEnv>['defaultHook']> = (result, c) => {
  if (!result.success) {
    const issues = formatIssues(result.error)
    return errorJson(
      c,
      'invalid_input',
      `Invalid request: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
      {
        issues,
      },
    )
  }
}

/** Maps anything a route throws to its status and JSON body (never a stack); logs the unexpected ones. */
export function errorHandler({ logger }: { logger: Logger }): ErrorHandler<AppEnv> {
  return (error, c) => {
    const { status, body, retryAfterSec, expected } = describeError(error)
    if (retryAfterSec) c.header('Retry-After', String(retryAfterSec))
    const requestId = c.get('requestId')
    if (!expected)
      logger.error(
        {
          reqId: requestId,
          err: {
            name: (error as Error).name,
            message: redactSecrets(String((error as Error).message)),
            stack: redactSecrets(String((error as Error).stack)),
          },
        },
        'unhandled error',
      )
    return c.json({ ...body, requestId }, status as 400)
  }
}

/** Answers an unknown route with 404 in the server's error shape. */
export const notFound: NotFoundHandler<AppEnv> = (c) =>
  errorJson(c, 'not_found', `No route for ${c.req.method} ${redactSecrets(c.req.path)}`)
