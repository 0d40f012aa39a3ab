import { ConfigError, InputError, type ProviderErrorKind, isProviderError, redactSecrets } from '@search-layer/core'
import { HTTPException } from 'hono/http-exception'

/** The error codes a response body can carry. */
export type ErrorCode =
  | 'invalid_input'
  | 'unauthorized'
  | 'not_found'
  | 'body_too_large'
  | 'rate_limited'
  | 'not_configured'
  | 'timeout'
  | 'upstream'
  | 'internal'

/** The one table from error to HTTP status. */
export const ERROR_STATUS: Record<ErrorCode, 400 | 401 | 404 | 413 | 429 | 500 | 502 | 503 | 504> = {
  invalid_input: 400,
  unauthorized: 401,
  not_found: 404,
  body_too_large: 413,
  rate_limited: 429,
  not_configured: 503,
  timeout: 504,
  upstream: 502,
  internal: 500,
}

/** Provider error kinds (from fetch routes) to response codes; a provider's rate limit is ours to pass on. */
const PROVIDER_KIND_CODE: Record<ProviderErrorKind, ErrorCode> = {
  auth: 'upstream',
  quota: 'upstream',
  rate_limited: 'rate_limited',
  timeout: 'timeout',
  upstream: 'upstream',
  bad_response: 'upstream',
  network: 'upstream',
  config: 'not_configured',
}

/** The JSON body of every error response. */
export interface ErrorBody {
  error: string
  code: ErrorCode
  requestId?: string
  issues?: { path: string; message: string }[]
  kind?: ProviderErrorKind
}

/** Maps anything thrown by a handler to a status, body and optional Retry-After (seconds); never a stack. */
export function describeError(error: unknown): { status: number; body: ErrorBody; retryAfterSec?: number; expected: boolean } {
  if (error instanceof InputError) {
    return { status: 400, body: { error: error.message, code: 'invalid_input', issues: [...error.issues] }, expected: true }
  }
  if (error instanceof ConfigError) {
    // The engine raises ConfigError only for server-side setup (no provider key): the caller cannot fix it.
    return { status: ERROR_STATUS.not_configured, body: { error: error.message, code: 'not_configured' }, expected: true }
  }
  if (isProviderError(error)) {
    const code = PROVIDER_KIND_CODE[error.kind]
    const retryAfterSec = error.retryAfterMs !== undefined ? Math.max(1, Math.ceil(error.retryAfterMs / 1000)) : undefined
    return { status: ERROR_STATUS[code], body: { error: error.message, code, kind: error.kind }, ...(retryAfterSec && { retryAfterSec }), expected: true }
  }
  if (error instanceof HTTPException) {
    const status = error.status
    const code: ErrorCode = status === 413 ? 'body_too_large' : status === 401 ? 'unauthorized' : status === 404 ? 'not_found' : status === 504 ? 'timeout' : status < 500 ? 'invalid_input' : 'internal'
    return { status, body: { error: redactSecrets(error.message || 'request failed'), code }, expected: status < 500 }
  }
  return { status: 500, body: { error: 'internal error: see the server log for this request id', code: 'internal' }, expected: false }
}
