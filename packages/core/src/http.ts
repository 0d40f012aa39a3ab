import { setTimeout as sleep } from 'node:timers/promises'
import { createRequire } from 'node:module'
import { Agent, type Dispatcher, EnvHttpProxyAgent } from 'undici'
import { cassetteConfigFor, recordRequest, replayRequest } from './_cassette-http.js'
import { sendAttempt } from './_http-attempt.js'
import type { HttpRequestOptions, HttpResponse, HttpTextResponse } from './http-types.js'
import { ProviderError } from './errors.js'
import type { Env } from './env.js'
import { parseRetryAfter } from './rate-limit-headers.js'
import { safeParseJson } from './safe-parse-json.js'
import { timerMs, upstreamWaitMs } from './upstream-wait.js'

const DEFAULT_MAX_BYTES = 5 * 1024 * 1024

// node:zlib is loaded by the first compressed answer: most provider answers are not compressed, and loading it costs
// a fresh process (the CLI) ~1.4 ms.
let zlib: typeof import('node:zlib') | undefined
const zlibModule = () => (zlib ??= createRequire(import.meta.url)('node:zlib') as typeof import('node:zlib'))

const keepAliveAgent = new Agent({ keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000 })
const proxyAgents = new Map<string, Dispatcher>()

/** The dispatcher for a call: a proxy agent when proxy variables are set, else a shared keep-alive agent. */
export function dispatcherFor(env: Env = process.env): Dispatcher {
  const httpProxy = env.HTTP_PROXY ?? env.http_proxy
  const httpsProxy = env.HTTPS_PROXY ?? env.https_proxy
  const noProxy = env.NO_PROXY ?? env.no_proxy
  if (!httpProxy && !httpsProxy) return keepAliveAgent
  const key = `${httpProxy ?? ''}|${httpsProxy ?? ''}|${noProxy ?? ''}`
  let agent = proxyAgents.get(key)
  if (!agent) {
    agent = new EnvHttpProxyAgent({
      ...(httpProxy && { httpProxy }),
      ...(httpsProxy && { httpsProxy }),
      ...(noProxy !== undefined && { noProxy }),
    })
    proxyAgents.set(key, agent)
  }
  return agent
}

/** The status-based default classification of an error response. */
export function errorFromStatus(
  service: string,
  status: number,
  options: { detail?: string; code?: string; retryAfterMs?: number; secrets?: readonly (string | undefined)[] } = {},
): ProviderError {
  const detail = options.detail ? `: ${truncate(options.detail, 200)}` : ''
  const base = { provider: service, status, code: options.code, secrets: options.secrets }
  if (status === 401 || status === 403)
    return new ProviderError(`${service} rejected the credentials (HTTP ${status})${detail}`, { ...base, kind: 'auth' })
  if (status === 402)
    return new ProviderError(`${service} quota or credits exhausted (HTTP 402)${detail}`, { ...base, kind: 'quota' })
  if (status === 408) return new ProviderError(`${service} timed out (HTTP 408)${detail}`, { ...base, kind: 'timeout' })
  if (status === 429)
    return new ProviderError(`${service} rate limit hit (HTTP 429)${detail}${retryHint(options.retryAfterMs)}`, {
      ...base,
      kind: 'rate_limited',
      retryAfterMs: options.retryAfterMs,
    })
  if (status >= 500)
    return new ProviderError(`${service} server error (HTTP ${status})${detail}`, { ...base, kind: 'upstream' })
  if (status === 400 || status === 422)
    return new ProviderError(`${service} rejected the request parameters (HTTP ${status})${detail}`, {
      ...base,
      kind: 'bad_request',
    })
  return new ProviderError(`${service} refused the request (HTTP ${status})${detail}`, {
    ...base,
    kind: 'upstream',
    retryable: false,
  })
}

/** ` retry after 2s` style hint for messages. */
export function retryHint(retryAfterMs: number | undefined): string {
  const ms = upstreamWaitMs(retryAfterMs)
  return ms === undefined ? '' : `; retry after ${Math.ceil(ms / 1000)}s`
}

function truncate(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat
}

function targetUrl(url: string, query: HttpRequestOptions<unknown>['query']): URL {
  const u = new URL(url)
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue
    if (Array.isArray(value)) for (const v of value) u.searchParams.append(key, String(v))
    else u.searchParams.set(key, String(value))
  }
  return u
}

function buildUrl(url: string, query: HttpRequestOptions<unknown>['query']): string {
  return query ? targetUrl(url, query).toString() : url
}

/**
 * The body as text, decompressed when `content-encoding` says so: undici's `request` does not decompress, and some
 * services (the Stack Exchange API) compress every answer whatever the request's `accept-encoding`. The decompressed
 * size is held to `maxBytes` too.
 */
function decodeBody(raw: Buffer, encoding: string | undefined, maxBytes: number, service: string): string {
  const coding = encoding?.trim().toLowerCase()
  if (!coding || coding === 'identity' || raw.length === 0) return raw.toString('utf8')
  const options = { maxOutputLength: maxBytes }
  const { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } = zlibModule()
  try {
    if (coding === 'gzip' || coding === 'x-gzip') return gunzipSync(raw, options).toString('utf8')
    if (coding === 'br') return brotliDecompressSync(raw, options).toString('utf8')
    if (coding === 'deflate') {
      // "deflate" is zlib-wrapped by the RFC, raw deflate by some servers.
      try {
        return inflateSync(raw, options).toString('utf8')
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw error
        return inflateRawSync(raw, options).toString('utf8')
      }
    }
  } catch (error) {
    const tooLarge = (error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE'
    throw new ProviderError(
      tooLarge
        ? `${service} sent a response larger than ${maxBytes} bytes once decompressed; refused`
        : `${service} sent a ${coding} body that does not decompress`,
      { kind: 'bad_response', provider: service, cause: error },
    )
  }
  throw new ProviderError(`${service} sent a body in an unsupported content-encoding (${coding})`, {
    kind: 'bad_response',
    provider: service,
  })
}

/**
 * One call returning the 2xx body as text, with the same timeout, size cap, retry and error policy as
 * `requestJson` (error bodies still go through `mapError`). Rejects only with `ProviderError`.
 */
export async function requestText(options: Omit<HttpRequestOptions<string>, 'schema'>): Promise<HttpTextResponse> {
  const res = await request<string>(options, (text) => text)
  return { text: res.data, status: res.status, headers: res.headers, attempts: res.attempts, ms: res.ms }
}

/**
 * One JSON call with timeout, size cap, schema validation and retries with jittered exponential backoff
 * (honouring `Retry-After`, never past the deadline). Rejects only with `ProviderError`.
 */
export async function requestJson<T = unknown>(options: HttpRequestOptions<T>): Promise<HttpResponse<T>> {
  return request(options, (text, meta) => parseJsonBody(options, text, meta))
}

type BodyMeta = { status: number; headers: Readonly<Record<string, string>> }

function parseJsonBody<T>(options: HttpRequestOptions<T>, text: string, { status, headers }: BodyMeta): T {
  const { service } = options
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    const looksHtml = /^\s*</.test(text)
    throw new ProviderError(
      `${service} returned ${looksHtml ? 'HTML' : text.length === 0 ? 'an empty body' : 'malformed JSON'} instead of JSON (content-type ${headers['content-type'] ?? 'none'}, ${text.length} bytes)`,
      { kind: 'bad_response', provider: service, status },
    )
  }
  if (!options.schema) return json as T
  const parsed = safeParseJson(options.schema, json)
  if (!parsed.success) {
    const where = parsed.error.issues
      .slice(0, 3)
      .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
      .join('; ')
    throw new ProviderError(`${service} response did not have the expected shape (${where})`, {
      kind: 'bad_response',
      provider: service,
      status,
    })
  }
  return parsed.data
}

// Cassettes (SEARCH_LAYER_RECORD / SEARCH_LAYER_REPLAY) sit here so every service's calls are recorded and replayed.
async function request<T>(
  options: HttpRequestOptions<T>,
  readBody: (text: string, meta: BodyMeta) => T,
): Promise<HttpResponse<T>> {
  const cassettes = cassetteConfigFor(options as HttpRequestOptions<unknown>)
  if (!cassettes) return requestLive(options, readBody)
  const url = buildUrl(options.url, options.query)
  if (cassettes.mode === 'replay') return replayRequest(cassettes, options, url, readBody, responseError)
  return recordRequest(cassettes, options, url, readBody, requestLive)
}

/** A non-2xx response as the caller's `mapError` sees it, or the status-based default. */
function responseError<T>(
  options: HttpRequestOptions<T>,
  status: number,
  headers: Readonly<Record<string, string>>,
  text: string,
): ProviderError {
  let json: unknown
  try {
    json = text.length > 0 ? JSON.parse(text) : undefined
  } catch {
    json = undefined
  }
  const retryAfterMs = parseRetryAfter(headers['retry-after'])
  return (
    options.mapError?.({ status, headers, text, json, retryAfterMs }) ??
    errorFromStatus(options.service, status, { retryAfterMs, secrets: options.secrets })
  )
}

async function requestLive<T>(
  options: HttpRequestOptions<T>,
  readBody: (text: string, meta: BodyMeta) => T,
): Promise<HttpResponse<T>> {
  const {
    service,
    method = options.json === undefined ? 'GET' : 'POST',
    timeoutMs = 10_000,
    maxBytes = DEFAULT_MAX_BYTES,
    retries = 2,
    maxRetryWaitMs = 5_000,
    backoffBaseMs = 200,
  } = options
  const target = targetUrl(options.url, options.query)
  const headers: Record<string, string> = { accept: 'application/json' }
  for (const [k, v] of Object.entries(options.headers ?? {})) if (v !== undefined) headers[k.toLowerCase()] = v
  const body = options.json === undefined ? undefined : JSON.stringify(options.json)
  if (body !== undefined) headers['content-type'] ??= 'application/json'
  const dispatcher = dispatcherFor(options.env)
  const onHeaders = (status: number, resHeaders: Readonly<Record<string, string>>) =>
    options.onResponse?.({ status, headers: resHeaders })
  const started = Date.now()

  for (let attempt = 1; ; attempt++) {
    const attemptStart = Date.now()
    let error: ProviderError
    let status: number | undefined
    try {
      const result = await attemptOnce()
      options.onAttempt?.({ attempt, status: result.status, ms: Date.now() - attemptStart })
      return { ...result, attempts: attempt, ms: Date.now() - started }
    } catch (caught) {
      error = caught as ProviderError
      status = error.status
    }
    options.onAttempt?.({ attempt, status, ms: Date.now() - attemptStart, error })
    if (!error.retryable || attempt > retries || options.signal?.aborted) throw error
    if (error.kind === 'rate_limited' && options.retryRateLimited === false) throw error
    const backoff = backoffBaseMs * 2 ** (attempt - 1)
    const jittered = backoff / 2 + Math.random() * (backoff / 2)
    if (error.retryAfterMs !== undefined && error.retryAfterMs > maxRetryWaitMs) throw error
    const waitMs = Math.max(jittered, error.retryAfterMs ?? 0)
    // Waiting is pointless if the next attempt could not even start before the deadline.
    if (options.deadlineAt !== undefined && Date.now() + waitMs + 10 >= options.deadlineAt) throw error
    try {
      await sleep(timerMs(waitMs), undefined, { signal: options.signal })
    } catch {
      throw error
    }
  }

  async function attemptOnce(): Promise<Omit<HttpResponse<T>, 'attempts' | 'ms'>> {
    const remaining = options.deadlineAt === undefined ? Number.POSITIVE_INFINITY : options.deadlineAt - Date.now()
    if (remaining <= 0)
      throw new ProviderError(`${service} call skipped: deadline already passed`, {
        kind: 'timeout',
        provider: service,
        retryable: false,
      })
    const answer = await sendAttempt({
      service,
      dispatcher,
      url: target,
      method,
      headers,
      body,
      timeoutMs: Math.max(1, Math.min(timeoutMs, remaining)),
      signal: options.signal,
      maxBytes,
      onHeaders,
      ...(options.onRequestSent && { onRequestSent: options.onRequestSent }),
    })
    const text = decodeBody(answer.body, answer.headers['content-encoding'], maxBytes, service)
    if (answer.status < 200 || answer.status >= 300) throw responseError(options, answer.status, answer.headers, text)
    return {
      data: readBody(text, { status: answer.status, headers: answer.headers }),
      status: answer.status,
      headers: answer.headers,
    }
  }
}
