import { lookup as dnsLookup } from 'node:dns/promises'
import { Agent, request } from 'undici'
import { closeQuietly, readCappedBody } from './_body-read.js'
import {
  type Pin,
  describe,
  normalizeHostName,
  parseTarget,
  pinnedLookup,
  privateHostsPolicy,
  truncate,
  vetHost,
} from './_host-guard.js'
import { hasPdfSignature, mediaType, readAsType, sniffType, typeAllowed } from './_media-type.js'
import { decodeBody, detectCharset } from './charset.js'
import { FetchError, isFetchError } from './errors.js'

/** Options of `safeFetch`; every field has a safe default. */
export interface SafeFetchOptions {
  signal?: AbortSignal
  /** Time allowed for the whole fetch: every redirect hop and the body. Default 10 000. */
  timeoutMs?: number
  /** Largest body accepted, counted on the wire and again after decompression (bytes). Default 5 MiB. */
  maxBytes?: number
  /** Redirects followed before giving up; each hop is checked like the first URL. Default 5. */
  maxRedirects?: number
  /** Lift the address check (self-hosted use, tests). Default: `SEARCH_LAYER_ALLOW_PRIVATE_HOSTS` (on, true, 1 / off). */
  allowPrivateHosts?: boolean
  /**
   * Host names (as in the URL, e.g. `intranet.example`, `127.0.0.1`, `[::1]`) exempt from the address check, for
   * one trusted self-hosted service without lifting the check for everything. Redirect targets are still checked.
   */
  allowHosts?: readonly string[]
  /** Media types accepted (`*` matches within a subtype: `application/*+json`). Default: HTML, text, markdown, JSON, XML, RSS, Atom, PDF. */
  allowedContentTypes?: readonly string[]
  /** Extra request headers; `host`, `accept-encoding` and hop-by-hop headers are ours. Dropped on a cross-origin redirect when they carry credentials. */
  headers?: Record<string, string>
  /** Where `SEARCH_LAYER_ALLOW_PRIVATE_HOSTS` is read; default `process.env`. */
  env?: Record<string, string | undefined>
  /** Default `search-layer/0.1 (+page-fetch)`. */
  userAgent?: string
  /** Resolves a host name to all its addresses; default `dns.lookup(host, { all: true })`. Injected by tests. */
  lookup?: (hostname: string) => Promise<readonly { address: string; family: number }[]>
}

/** A fetched and decoded response body. */
export interface FetchedResource {
  /** The URL that was asked for. */
  url: string
  /** The URL of the response, after redirects. */
  finalUrl: string
  status: number
  /** Response headers, lower-case names, repeated values joined with `, `. */
  headers: Record<string, string>
  /**
   * The media type without parameters (`text/html`); sniffed when the server sent none. `application/pdf` also for
   * a `.pdf` URL served as `application/octet-stream` whose bytes are a PDF.
   */
  contentType: string
  /** The WHATWG encoding name the text was decoded with; `binary` for a PDF. */
  charset: string
  /** Every redirect target, in order. */
  redirects: string[]
  /** Size of the decompressed body. */
  bytes: number
  /** The decompressed body. */
  body: Buffer
  /** The body decoded with `charset`; empty for a PDF (read `body`). */
  text: string
}

/** The media types `safeFetch` accepts unless told otherwise. */
export const DEFAULT_ALLOWED_CONTENT_TYPES: readonly string[] = [
  'text/html',
  'application/xhtml+xml',
  'text/plain',
  'text/markdown',
  'application/json',
  'application/*+json',
  'application/xml',
  'text/xml',
  'application/rss+xml',
  'application/atom+xml',
  'application/pdf',
]

const DEFAULT_MAX_BYTES = 5 * 1024 * 1024
const DEFAULT_USER_AGENT = 'search-layer/0.1 (+page-fetch)'
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308])
// Ours to set: a caller's value would either break framing or let it ask for encodings we cannot cap.
const RESERVED_HEADERS = new Set([
  'host',
  'accept-encoding',
  'connection',
  'content-length',
  'transfer-encoding',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
])
const CREDENTIAL_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization'])

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value
  }
  return out
}

function retryableStatus(status: number): boolean {
  return status === 408 || status === 425 || status === 429 || status >= 500
}

/**
 * Fetches an http(s) URL from untrusted input safely: refuses non-public addresses (by default) on every hop,
 * connects only to the address it checked, follows at most `maxRedirects`, caps the body on the wire and after
 * decompression, accepts only allowed content types, and decodes the text with the detected charset.
 * Rejects only with `FetchError` (`bad_url`, `blocked`, `too_large`, `unsupported_type`, `http`, `timeout`, `network`).
 */
export async function safeFetch(url: string, options: SafeFetchOptions = {}): Promise<FetchedResource> {
  const requested = typeof url === 'string' ? url : String(url)
  const timeoutMs = options.timeoutMs ?? 10_000
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES
  const maxRedirects = options.maxRedirects ?? 5
  const env = options.env ?? process.env
  const privateHosts = privateHostsPolicy(options.allowPrivateHosts, env)
  const allowedTypes = options.allowedContentTypes ?? DEFAULT_ALLOWED_CONTENT_TYPES
  const allowHosts = new Set((options.allowHosts ?? []).map(normalizeHostName))
  const resolve = options.lookup ?? ((hostname: string) => dnsLookup(hostname, { all: true, verbatim: true }))

  const timeoutSignal = AbortSignal.timeout(timeoutMs)
  const signal = options.signal ? AbortSignal.any([options.signal, timeoutSignal]) : timeoutSignal
  const pins = new Map<string, Pin[]>()
  // One agent per call: its pinned lookup only knows this call's vetted hosts, and nothing leaks between calls.
  const agent = new Agent({ connect: { lookup: pinnedLookup(pins) as never, timeout: timeoutMs }, connections: 4 })

  const userHeaders: Record<string, string> = {}
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (!RESERVED_HEADERS.has(name.toLowerCase())) userHeaders[name.toLowerCase()] = value
  }

  try {
    let current = parseTarget(requested, undefined, requested)
    const origin = current.origin
    const redirects: string[] = []
    for (;;) {
      if (signal.aborted) throw signal.reason
      const vetted = await vetHost(
        current,
        requested,
        { ...privateHosts, allowed: privateHosts.allowed || allowHosts.has(current.hostname.toLowerCase()) },
        resolve,
        signal,
      )
      pins.set(current.hostname.toLowerCase(), vetted)

      const headers: Record<string, string> = {
        'user-agent': options.userAgent ?? DEFAULT_USER_AGENT,
        accept:
          'text/html,application/xhtml+xml,application/xml;q=0.9,text/plain;q=0.8,application/json;q=0.8,*/*;q=0.5',
        ...userHeaders,
        'accept-encoding': 'gzip, deflate, br',
      }
      if (current.origin !== origin) for (const name of CREDENTIAL_HEADERS) delete headers[name]
      const target = new URL(current.href)
      target.username = ''
      target.password = ''
      target.hash = ''

      const res = await request(target, { dispatcher: agent, method: 'GET', headers, signal })
      const resHeaders = flattenHeaders(res.headers as Record<string, string | string[] | undefined>)

      if (REDIRECT_STATUSES.has(res.statusCode) && resHeaders.location) {
        closeQuietly(res.body)
        if (redirects.length >= maxRedirects) {
          throw new FetchError(
            `refused to follow more than ${maxRedirects} redirects from ${describe(new URL(requested))}`,
            { kind: 'http', url: requested, status: res.statusCode },
          )
        }
        const next = parseTarget(resHeaders.location, current, requested)
        redirects.push(describe(next))
        current = next
        continue
      }

      if (res.statusCode < 200 || res.statusCode >= 300) {
        closeQuietly(res.body)
        throw new FetchError(`${describe(current)} answered HTTP ${res.statusCode}`, {
          kind: 'http',
          url: requested,
          status: res.statusCode,
          retryable: retryableStatus(res.statusCode),
        })
      }

      const declaredType = resHeaders['content-type']
      const labelledMedia = mediaType(declaredType)
      const declaredMedia = readAsType(labelledMedia, current)
      if (declaredMedia !== '' && !typeAllowed(declaredMedia, allowedTypes)) {
        closeQuietly(res.body)
        throw new FetchError(
          `refused ${describe(current)}: content type ${truncate(labelledMedia, 80)} is not allowed`,
          { kind: 'unsupported_type', url: requested, status: res.statusCode },
        )
      }
      const declaredLength = Number(resHeaders['content-length'])
      if (Number.isFinite(declaredLength) && declaredLength > maxBytes) {
        closeQuietly(res.body)
        throw new FetchError(
          `refused ${describe(current)}: ${declaredLength} bytes is over the ${maxBytes}-byte limit`,
          { kind: 'too_large', url: requested, status: res.statusCode },
        )
      }

      const { body, bytes } = await readCappedBody(res, {
        encoding: resHeaders['content-encoding'],
        describeUrl: describe(current),
        requested,
        maxBytes,
        signal,
      })
      if (declaredMedia !== labelledMedia && declaredMedia === 'application/pdf' && !hasPdfSignature(body))
        throw new FetchError(
          `refused ${describe(current)}: served as ${truncate(labelledMedia, 80)}, and its body is not a PDF`,
          { kind: 'unsupported_type', url: requested, status: res.statusCode },
        )
      const contentType = declaredMedia === '' ? sniffType(body) : declaredMedia
      if (declaredMedia === '' && !typeAllowed(contentType, allowedTypes)) {
        throw new FetchError(
          `refused ${describe(current)}: unlabelled body looks like ${contentType}, which is not allowed`,
          { kind: 'unsupported_type', url: requested, status: res.statusCode },
        )
      }
      // A PDF is read from its bytes; decoding megabytes of binary as text would only cost time.
      const binary = contentType === 'application/pdf'
      const { charset } = binary ? { charset: 'binary' } : detectCharset(body, declaredType ?? contentType)
      return {
        url: requested,
        finalUrl: describe(current),
        status: res.statusCode,
        headers: resHeaders,
        contentType,
        charset,
        redirects,
        bytes,
        body,
        text: binary ? '' : decodeBody(body, charset),
      }
    }
  } catch (error) {
    throw toFetchError(error, requested, options.signal, timeoutSignal, timeoutMs)
  } finally {
    agent.destroy().catch(() => {})
  }
}

function toFetchError(
  error: unknown,
  requested: string,
  callerSignal: AbortSignal | undefined,
  timeoutSignal: AbortSignal,
  timeoutMs: number,
): FetchError {
  if (isFetchError(error)) return error
  if (callerSignal?.aborted)
    return new FetchError(`fetch of ${truncate(requested)} was cancelled`, {
      kind: 'timeout',
      url: requested,
      retryable: false,
      cause: error,
    })
  const code = (error as { code?: string } | undefined)?.code
  if (
    timeoutSignal.aborted ||
    code === 'UND_ERR_CONNECT_TIMEOUT' ||
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT'
  ) {
    return new FetchError(`fetch of ${truncate(requested)} did not complete within ${timeoutMs} ms`, {
      kind: 'timeout',
      url: requested,
      cause: error,
    })
  }
  const message = error instanceof Error ? error.message : String(error)
  return new FetchError(`fetch of ${truncate(requested)} failed (${code ?? truncate(message, 120)})`, {
    kind: 'network',
    url: requested,
    cause: error,
  })
}
