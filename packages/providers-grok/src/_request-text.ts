import { setTimeout as sleep } from 'node:timers/promises'
import { type HttpErrorResponse, ProviderError, errorFromStatus, isProviderError, parseRetryAfter } from '@search-layer/core'

// NOTE(grok): core's requestJson only hands back parsed JSON, but OpenAI-compatible proxies may answer
// `/chat/completions` with an SSE body (`data: {...}` lines) even for non-streaming requests. This is the
// same policy (per-attempt timeout, deadline, size cap, retries honouring Retry-After) returning raw text.

export interface TextRequestOptions {
  service: string
  url: string
  headers: Readonly<Record<string, string>>
  json: unknown
  timeoutMs: number
  signal?: AbortSignal
  deadlineAt?: number
  maxBytes?: number
  retries?: number
  maxRetryWaitMs?: number
  backoffBaseMs?: number
  secrets?: readonly (string | undefined)[]
  mapError?: (response: HttpErrorResponse) => ProviderError | undefined
}

export interface TextResponse {
  text: string
  status: number
  headers: Readonly<Record<string, string>>
}

/** POSTs JSON and returns the 2xx body as text. Rejects only with `ProviderError`. */
export async function postForText(options: TextRequestOptions): Promise<TextResponse> {
  const { retries = 2, maxRetryWaitMs = 5_000, backoffBaseMs = 200 } = options
  for (let attempt = 1; ; attempt++) {
    let error: ProviderError
    try {
      return await attemptOnce(options)
    } catch (caught) {
      error = isProviderError(caught)
        ? caught
        : new ProviderError(`${options.service} call failed`, { kind: 'network', provider: options.service, cause: caught })
    }
    if (!error.retryable || attempt > retries || options.signal?.aborted) throw error
    if (error.retryAfterMs !== undefined && error.retryAfterMs > maxRetryWaitMs) throw error
    const backoff = backoffBaseMs * 2 ** (attempt - 1)
    const waitMs = Math.max(backoff / 2 + Math.random() * (backoff / 2), error.retryAfterMs ?? 0)
    if (options.deadlineAt !== undefined && Date.now() + waitMs + 10 >= options.deadlineAt) throw error
    try {
      await sleep(waitMs, undefined, { signal: options.signal })
    } catch {
      throw error
    }
  }
}

async function attemptOnce(options: TextRequestOptions): Promise<TextResponse> {
  const { service } = options
  const maxBytes = options.maxBytes ?? 5 * 1024 * 1024
  const remaining = options.deadlineAt === undefined ? Number.POSITIVE_INFINITY : options.deadlineAt - Date.now()
  if (remaining <= 0) throw new ProviderError(`${service} call skipped: deadline already passed`, { kind: 'timeout', provider: service, retryable: false })
  const attemptTimeout = Math.max(1, Math.min(options.timeoutMs, remaining))
  const timeout = AbortSignal.timeout(attemptTimeout)
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout
  const failure = (error: unknown): ProviderError => {
    if (isProviderError(error)) return error
    if (options.signal?.aborted) return new ProviderError(`${service} call was cancelled`, { kind: 'timeout', provider: service, retryable: false, cause: error })
    if (timeout.aborted) return new ProviderError(`${service} did not answer within ${attemptTimeout} ms`, { kind: 'timeout', provider: service, cause: error })
    const code = (error as { cause?: { code?: string } }).cause?.code
    return new ProviderError(`${service} connection failed (${code ?? 'unknown'})`, { kind: 'network', provider: service, cause: error })
  }
  let res: Response
  try {
    res = await fetch(options.url, {
      method: 'POST',
      headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', ...options.headers },
      body: JSON.stringify(options.json),
      signal,
    })
  } catch (error) {
    throw failure(error)
  }
  const headers: Record<string, string> = {}
  res.headers.forEach((value, key) => {
    headers[key.toLowerCase()] = value
  })
  let text: string
  try {
    text = await readCapped(res, maxBytes, service)
  } catch (error) {
    throw failure(error)
  }
  if (res.status < 200 || res.status >= 300) {
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      json = undefined
    }
    const response: HttpErrorResponse = { status: res.status, headers, text, json, retryAfterMs: parseRetryAfter(headers['retry-after']) }
    throw options.mapError?.(response) ?? errorFromStatus(service, res.status, { retryAfterMs: response.retryAfterMs, secrets: options.secrets })
  }
  return { text, status: res.status, headers }
}

async function readCapped(res: Response, maxBytes: number, service: string): Promise<string> {
  const tooLarge = () => new ProviderError(`${service} sent a response larger than ${maxBytes} bytes; refused`, { kind: 'bad_response', provider: service, status: res.status })
  const declared = Number(res.headers.get('content-length'))
  if (Number.isFinite(declared) && declared > maxBytes) {
    await res.body?.cancel().catch(() => undefined)
    throw tooLarge()
  }
  if (!res.body) return ''
  const reader = res.body.getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.byteLength
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined)
      throw tooLarge()
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks).toString('utf8')
}
