import {
  type CassetteConfig,
  type CassetteRequest,
  cassetteBodyText,
  keyValuesFromEnv,
  readCassette,
  resolveCassetteConfig,
  writeCassette,
} from './cassette.js'
import { ConfigError, ProviderError } from './errors.js'
import type { HttpRequestOptions, HttpResponse } from './http-types.js'

type BodyReader<T> = (text: string, meta: { status: number; headers: Readonly<Record<string, string>> }) => T
type LiveRequest = <T>(options: HttpRequestOptions<T>, readBody: BodyReader<T>) => Promise<HttpResponse<T>>
/** The error a non-2xx response becomes: the caller's `mapError`, else the status-based default. */
type ResponseError = <T>(
  options: HttpRequestOptions<T>,
  status: number,
  headers: Readonly<Record<string, string>>,
  text: string,
) => ProviderError

/** The cassette mode for a call's environment; a `config` error when both cassette variables are set. */
export function cassetteConfigFor(options: HttpRequestOptions<unknown>): CassetteConfig | undefined {
  try {
    return resolveCassetteConfig(options.env ?? process.env)
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    throw new ProviderError(error.message, {
      kind: 'config',
      provider: options.service,
      retryable: false,
      cause: error,
    })
  }
}

function exchangeRequest(options: HttpRequestOptions<unknown>, url: string): CassetteRequest {
  const method = options.method ?? (options.json === undefined ? 'GET' : 'POST')
  return { method, url, ...(options.json !== undefined && { body: options.json }) }
}

function secretsOf(options: HttpRequestOptions<unknown>): string[] {
  const own = (options.secrets ?? []).filter((s): s is string => typeof s === 'string' && s.length > 0)
  return [...own, ...keyValuesFromEnv(options.env ?? process.env)]
}

/**
 * Answers a call from its cassette, as the live call would have: a 2xx body goes through `readBody` (schema checks
 * included), anything else through the caller's error mapping. Opens no connection and makes one attempt: a retry
 * would read the same file.
 */
export async function replayRequest<T>(
  config: CassetteConfig,
  options: HttpRequestOptions<T>,
  url: string,
  readBody: BodyReader<T>,
  responseError: ResponseError,
): Promise<HttpResponse<T>> {
  const started = Date.now()
  if (options.signal?.aborted)
    throw new ProviderError(`${options.service} call was cancelled`, {
      kind: 'timeout',
      provider: options.service,
      retryable: false,
    })
  const { response } = readCassette(exchangeRequest(options as HttpRequestOptions<unknown>, url), {
    dir: config.dir,
    provider: options.service,
    secrets: secretsOf(options as HttpRequestOptions<unknown>),
  })
  const text = cassetteBodyText(response)
  const { status, headers } = response
  // As if the recorded request had been sent and answered; the hooks are observers.
  try {
    options.onRequestSent?.()
  } catch {}
  try {
    options.onResponse?.({ status, headers })
  } catch {}
  try {
    if (status < 200 || status >= 300) throw responseError(options, status, headers, text)
    const data = readBody(text, { status, headers })
    options.onAttempt?.({ attempt: 1, status, ms: Date.now() - started })
    return { data, status, headers, attempts: 1, ms: Date.now() - started }
  } catch (error) {
    options.onAttempt?.({ attempt: 1, status, ms: Date.now() - started, error: error as ProviderError })
    throw error
  }
}

/**
 * Makes the live call and writes the response its last attempt received as a cassette, whether the call then
 * succeeded or failed on it (a 429, a body that did not match the schema). A last attempt that received no
 * response (timeout, reset) leaves no cassette.
 */
export async function recordRequest<T>(
  config: CassetteConfig,
  options: HttpRequestOptions<T>,
  url: string,
  readBody: BodyReader<T>,
  live: LiveRequest,
): Promise<HttpResponse<T>> {
  let attempts = 0
  let received: { attempt: number; status: number; headers: Readonly<Record<string, string>>; text: string } | undefined
  const capturing: HttpRequestOptions<T> = {
    ...options,
    mapError: (response) => {
      received = { attempt: attempts + 1, status: response.status, headers: response.headers, text: response.text }
      return options.mapError?.(response)
    },
    onAttempt: (info) => {
      attempts = info.attempt
      if (received && received.attempt !== info.attempt) received = undefined
      options.onAttempt?.(info)
    },
  }
  const save = () => {
    if (!received) return
    writeCassette(exchangeRequest(options as HttpRequestOptions<unknown>, url), received, {
      dir: config.dir,
      provider: options.service,
      secrets: secretsOf(options as HttpRequestOptions<unknown>),
    })
  }
  let result: HttpResponse<T>
  try {
    result = await live(capturing, (text, meta) => {
      received = { attempt: attempts + 1, ...meta, text }
      return readBody(text, meta)
    })
  } catch (error) {
    save()
    throw error
  }
  save()
  return result
}
