import { ConfigError, InputError, type ProviderErrorKind, isProviderError, redactSecrets } from '@search-layer/core'
import { upstreamWaitMs } from '@search-layer/core/http'
import { type FetchErrorKind, isFetchError } from '@search-layer/page-fetch'
import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'

/** The error codes a response body can carry. */
export type ErrorCode =
  | 'invalid_input'
  | 'unauthorized'
  | 'host_not_allowed'
  | 'cross_origin'
  | 'blocked'
  | 'not_found'
  | 'body_too_large'
  | 'rate_limited'
  | 'not_configured'
  | 'timeout'
  | 'upstream'
  | 'internal'

/** The one table from error to HTTP status (each status its literal type, so a route's typed responses match). */
export const ERROR_STATUS = {
  invalid_input: 400,
  unauthorized: 401,
  host_not_allowed: 403,
  cross_origin: 403,
  blocked: 403,
  not_found: 404,
  body_too_large: 413,
  rate_limited: 429,
  not_configured: 503,
  timeout: 504,
  upstream: 502,
  internal: 500,
} as const satisfies Record<ErrorCode, 400 | 401 | 403 | 404 | 413 | 429 | 500 | 502 | 503 | 504>

/** Provider error kinds (from fetch routes) to response codes; a provider's rate limit is ours to pass on. */
const PROVIDER_KIND_CODE: Record<ProviderErrorKind, ErrorCode> = {
  auth: 'upstream',
  quota: 'upstream',
  rate_limited: 'rate_limited',
  timeout: 'timeout',
  upstream: 'upstream',
  // The vendor refused the parameters we built: a fault on our side of the upstream call, not the caller's input.
  bad_request: 'upstream',
  bad_response: 'upstream',
  network: 'upstream',
  config: 'not_configured',
}

/** page-fetch's error kinds: the URL is the caller's input, the page is the upstream. */
const FETCH_KIND_CODE: Record<FetchErrorKind, ErrorCode> = {
  bad_url: 'invalid_input',
  blocked: 'blocked',
  too_large: 'upstream',
  unsupported_type: 'upstream',
  http: 'upstream',
  timeout: 'timeout',
  network: 'upstream',
  empty: 'upstream',
  unreadable: 'upstream',
  render_failed: 'upstream',
}

/** The JSON body of every error response. */
export interface ErrorBody {
  error: string
  code: ErrorCode
  requestId?: string
  issues?: { path: string; message: string }[]
  kind?: ProviderErrorKind | FetchErrorKind
  /** The upstream's HTTP status, when an upstream answered with an error. */
  status?: number
}

/** Maps anything thrown by a handler to a status, body and optional Retry-After (seconds); never a stack. */
export function describeError(error: unknown): {
  status: number
  body: ErrorBody
  retryAfterSec?: number
  expected: boolean
} {
  if (error instanceof InputError) {
    return {
      status: 400,
      body: { error: error.message, code: 'invalid_input', issues: [...error.issues] },
      expected: true,
    }
  }
  if (error instanceof ConfigError) {
    // The engine raises ConfigError only for server-side setup (no provider key): the caller cannot fix it.
    return {
      status: ERROR_STATUS.not_configured,
      body: { error: error.message, code: 'not_configured' },
      expected: true,
    }
  }
  if (isFetchError(error)) {
    const code = FETCH_KIND_CODE[error.kind]
    const issues = code === 'invalid_input' ? { issues: [{ path: 'url', message: error.message }] } : {}
    return {
      status: ERROR_STATUS[code],
      body: {
        error: error.message,
        code,
        kind: error.kind,
        ...(error.status !== undefined && { status: error.status }),
        ...issues,
      },
      expected: true,
    }
  }
  if (isProviderError(error)) {
    // thread-fetch keeps page-fetch's kind in `code`: a refused private address is the caller's doing.
    const code = error.code === 'blocked' ? 'blocked' : PROVIDER_KIND_CODE[error.kind]
    // An error from another copy of core carries its wait unchecked: an Infinity must not become a header.
    const waitMs = upstreamWaitMs(error.retryAfterMs)
    const retryAfterSec = waitMs !== undefined ? Math.max(1, Math.ceil(waitMs / 1000)) : undefined
    const body: ErrorBody = {
      error: error.message,
      code,
      kind: error.kind,
      ...(error.status !== undefined && { status: error.status }),
    }
    return { status: ERROR_STATUS[code], body, ...(retryAfterSec && { retryAfterSec }), expected: true }
  }
  if (error instanceof HTTPException) {
    const status = error.status
    const code: ErrorCode =
      status === 413
        ? 'body_too_large'
        : status === 401
          ? 'unauthorized'
          : status === 404
            ? 'not_found'
            : status === 504
              ? 'timeout'
              : status < 500
                ? 'invalid_input'
                : 'internal'
    return { status, body: { error: redactSecrets(error.message || 'request failed'), code }, expected: status < 500 }
  }
  return {
    status: 500,
    body: { error: 'internal error: see the server log for this request id', code: 'internal' },
    expected: false,
  }
}

/** An error response of `code` with the request's id: the one shape of every error the server itself answers. */
export function errorJson<C extends ErrorCode>(
  c: Context,
  code: C,
  message: string,
  extra: Pick<ErrorBody, 'issues'> = {},
) {
  const body: ErrorBody = { error: message, code, requestId: c.get('requestId') as string | undefined, ...extra }
  return c.json(body, ERROR_STATUS[code] as (typeof ERROR_STATUS)[C])
}
