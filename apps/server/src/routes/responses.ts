import { OpenAPIHono, type z } from '@hono/zod-openapi'
import { ErrorBodySchema } from '../schemas.js'
import type { AppEnv } from '../request-env.js'
import { ERROR_STATUS, type ErrorCode } from '../error-responses.js'

/** The OpenAPI security requirement of the routes behind auth: bearer when keys are set, none otherwise. */
export type Security = { bearer: string[] }[]

/** The security requirement for a server with auth on or off. */
export const securityFor = (authEnabled: boolean): Security => (authEnabled ? [{ bearer: [] }] : [])

/** A router whose routes join the app's OpenAPI document and validation hook when mounted with `app.route()`. */
export const createRouter = () => new OpenAPIHono<AppEnv>()

/** A JSON response of `schema`. */
export const json = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { 'application/json': { schema } },
})

type ErrorResponse = { description: string; content: { 'application/json': { schema: typeof ErrorBodySchema } } }

/**
 * The error responses of `codes`, each with the server's error body, keyed by their literal statuses: a route's
 * handler may then return `errorJson(c, code, …)` for each without a cast (`Object.fromEntries` cannot type the keys).
 */
export const errors = <C extends ErrorCode>(...codes: C[]) =>
  Object.fromEntries(
    codes.map((code) => [
      ERROR_STATUS[code],
      { description: code, content: { 'application/json': { schema: ErrorBodySchema } } },
    ]),
  ) as unknown as { [K in C as (typeof ERROR_STATUS)[K]]: ErrorResponse }

/** The errors every authenticated route can answer with. */
export const commonErrors = () => errors('unauthorized', 'rate_limited', 'timeout')

/** Declares the bearer scheme the routes' `security` refers to. */
export function registerBearerScheme(app: OpenAPIHono<AppEnv>): void {
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer' })
}
