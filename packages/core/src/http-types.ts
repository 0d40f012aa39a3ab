import type { z } from 'zod'
import type { Env } from './env.js'
import type { ProviderError } from './errors.js'

// The shapes of core's HTTP client, apart from the client itself so that the cassette layer it calls can name them
// without importing it back.

/** A non-2xx answer, handed to a service's own error mapping. */
export interface HttpErrorResponse {
  status: number
  headers: Readonly<Record<string, string>>
  /** The body as text (already capped in size). */
  text: string
  /** The body parsed as JSON, when it was JSON. */
  json: unknown
  /** `Retry-After` in milliseconds, when the server sent one. */
  retryAfterMs?: number
}

export interface HttpRequestOptions<T> {
  /** Who is being called (`brave`, `github`…): appears in errors and messages. */
  service: string
  url: string
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD'
  query?: Readonly<Record<string, string | number | boolean | undefined | null | readonly (string | number)[]>>
  headers?: Readonly<Record<string, string | undefined>>
  /** A JSON body; sets `content-type: application/json`. */
  json?: unknown
  /** Validates the parsed body; a mismatch is a `bad_response` error. */
  schema?: z.ZodType<T>
  /** Time allowed for one attempt (ms). Default 10 000. */
  timeoutMs?: number
  signal?: AbortSignal
  /** Absolute epoch ms after which no attempt starts and no retry waits. */
  deadlineAt?: number
  /** Largest body accepted (bytes). Default 5 MiB. */
  maxBytes?: number
  /** Retries after the first attempt, for retryable kinds only. Default 2. */
  retries?: number
  /** Longest `Retry-After` worth waiting for inside one call (ms). Default 5 000. */
  maxRetryWaitMs?: number
  /** Base of the exponential backoff (ms). Default 200. */
  backoffBaseMs?: number
  /** Values to scrub from any message (the key used for this call). */
  secrets?: readonly (string | undefined)[]
  /** Service-specific mapping of an error response; return undefined to use the status-based default. */
  mapError?: (response: HttpErrorResponse) => ProviderError | undefined
  /** Proxy settings are read from here (`HTTPS_PROXY`, `HTTP_PROXY`, `NO_PROXY`); default `process.env`. */
  env?: Env
  /** Called with the status and headers of every answer, errors included (rate-limit learning). */
  onResponse?: (response: { status: number; headers: Readonly<Record<string, string>> }) => void
  /** Called when an attempt's request has been written to its connection (once per attempt). */
  onRequestSent?: () => void
  /** `false`: a rate-limited answer is not retried inside the call (another key can take it). Default true. */
  retryRateLimited?: boolean
  /** Called after every attempt (metrics, logs). */
  onAttempt?: (info: { attempt: number; status?: number; ms: number; error?: ProviderError }) => void
}

export interface HttpResponse<T> {
  data: T
  status: number
  headers: Readonly<Record<string, string>>
  /** Attempts made, the successful one included. */
  attempts: number
  /** Wall time of the whole call, retries included. */
  ms: number
}

/** A 2xx answer as text, for bodies that are not one JSON document (SSE streams, HTML, NDJSON). */
export interface HttpTextResponse {
  text: string
  status: number
  headers: Readonly<Record<string, string>>
  attempts: number
  ms: number
}
