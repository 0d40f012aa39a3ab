import { InputError, ProviderError, isProviderError } from '@search-layer/core'
import { errorFromStatus } from '@search-layer/core/http'
import { isFetchError } from '@search-layer/page-fetch'
import type { ThreadError } from './types.js'

/**
 * page-fetch's `FetchError` as the `ProviderError` this package documents (`code` keeps the fetch kind), so
 * callers branch on one error class. `bad_url` is the caller's input, hence `InputError`.
 */
export function toThreadError(error: unknown, service: string): ProviderError | InputError {
  if (isProviderError(error) || error instanceof InputError) return error
  if (isFetchError(error)) {
    const base = {
      provider: service,
      code: error.kind,
      cause: error,
      ...(error.status !== undefined && { status: error.status }),
    }
    switch (error.kind) {
      case 'bad_url':
        return new InputError(error.message, [{ path: 'url', message: error.message }])
      case 'blocked':
        return new ProviderError(error.message, { ...base, kind: 'config', retryable: false })
      case 'too_large':
      case 'unsupported_type':
      case 'empty':
      case 'unreadable':
      case 'render_failed':
        return new ProviderError(error.message, { ...base, kind: 'bad_response', retryable: false })
      case 'http': {
        const mapped = errorFromStatus(service, error.status ?? 502, { detail: error.message })
        return new ProviderError(mapped.message, { ...base, kind: mapped.kind, retryable: mapped.retryable })
      }
      case 'timeout':
        return new ProviderError(error.message, { ...base, kind: 'timeout' })
      default:
        return new ProviderError(error.message, { ...base, kind: 'network' })
    }
  }
  if (error instanceof Error && error.name === 'AbortError')
    return new ProviderError(`${service} call was cancelled`, {
      kind: 'timeout',
      provider: service,
      retryable: false,
      cause: error,
    })
  return new ProviderError(`${service} failed: ${error instanceof Error ? error.message : String(error)}`, {
    kind: 'upstream',
    provider: service,
    retryable: false,
    cause: error,
  })
}

/** The JSON form of an error for a thread's `error` field. */
export function errorJson(error: ProviderError | InputError): ThreadError {
  if (error instanceof InputError) return { kind: 'input', message: error.message }
  return {
    kind: error.kind,
    message: error.message,
    ...(error.status !== undefined && { status: error.status }),
    ...(error.code !== undefined && { code: error.code }),
  }
}
