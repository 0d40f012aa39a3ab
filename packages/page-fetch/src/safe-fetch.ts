import { lookup as dnsLookup } from 'node:dns/promises'
import type { LookupAddress } from 'node:dns'
import { Transform, type TransformCallback, Writable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { createBrotliDecompress, createGunzip, createInflate, createInflateRaw } from 'node:zlib'
import { Agent, type Dispatcher, request } from 'undici'
import { stripUrlCredentials } from '@search-layer/core'
import { parseHostLiteral, blockedAddressReason } from './address.js'
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
  /** Lift the address check (self-hosted use, tests). Default: `env.SEARCH_LAYER_ALLOW_PRIVATE_HOSTS === '1'`. */
  allowPrivateHosts?: boolean
  /**
   * Host names (as in the URL, e.g. `intranet.example`, `127.0.0.1`, `[::1]`) exempt from the address check, for
   * one trusted self-hosted service without lifting the check for everything. Redirect targets are still checked.
   */
  allowHosts?: readonly string[]
  /** Media types accepted (`*` matches within a subtype: `application/*+json`). Default: HTML, text, markdown, JSON, XML, RSS, Atom. */
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
  /** The media type without parameters (`text/html`); sniffed when the server sent none. */
  contentType: string
  /** The WHATWG encoding name the text was decoded with. */
  charset: string
  /** Every redirect target, in order. */
  redirects: string[]
  /** Size of the decompressed body. */
  bytes: number
  /** The decompressed body. */
  body: Buffer
  /** The body decoded with `charset`. */
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
]

const DEFAULT_MAX_BYTES = 5 * 1024 * 1024
const DEFAULT_USER_AGENT = 'search-layer/0.1 (+page-fetch)'
const ALLOW_HINT = 'set SEARCH_LAYER_ALLOW_PRIVATE_HOSTS=1 to allow private hosts'
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

type Pin = { address: string; family: 4 | 6 }

const describe = (url: URL): string => stripUrlCredentials(url)

/**
 * Parses and checks the scheme of a URL (the first one or a redirect target).
 * @throws FetchError `bad_url` when it does not parse or has no host, `blocked` for a scheme other than http/https.
 */
function parseTarget(raw: string, base: URL | undefined, requested: string): URL {
  let url: URL
  try {
    url = base ? new URL(raw, base) : new URL(raw)
  } catch (cause) {
    throw new FetchError(`not a valid URL: ${truncate(raw)}`, {
      kind: base ? 'http' : 'bad_url',
      url: requested,
      cause,
    })
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    const what = base
      ? `a redirect to ${url.protocol} URL ${truncate(url.href)}`
      : `${url.protocol} URL ${truncate(url.href)}`
    throw new FetchError(`refused to fetch ${what}: only http and https are fetched`, {
      kind: 'blocked',
      url: requested,
    })
  }
  if (url.hostname === '')
    throw new FetchError(`not a valid URL: ${truncate(raw)} has no host`, { kind: 'bad_url', url: requested })
  return url
}

function normalizeHostName(host: string): string {
  try {
    return new URL(`http://${host}/`).hostname.toLowerCase()
  } catch {
    return host.toLowerCase()
  }
}

function truncate(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max)}…` : text
}

async function vetHost(
  url: URL,
  requested: string,
  allowPrivate: boolean,
  resolve: NonNullable<SafeFetchOptions['lookup']>,
  signal: AbortSignal,
): Promise<Pin[]> {
  const literal = parseHostLiteral(url.hostname)
  if (literal) {
    const reason = allowPrivate ? undefined : blockedAddressReason(literal.address)
    if (reason)
      throw new FetchError(`refused to fetch ${describe(url)}: ${reason}; ${ALLOW_HINT}`, {
        kind: 'blocked',
        url: requested,
      })
    return [literal]
  }
  // RFC 6761: localhost names are loopback whatever a resolver says (`localhost.` may not resolve at all).
  const localName = /(^|\.)localhost\.?$/i.test(url.hostname)
  const refuseLocalName = () =>
    new FetchError(`refused to fetch ${describe(url)}: ${url.hostname} is a loopback address; ${ALLOW_HINT}`, {
      kind: 'blocked',
      url: requested,
    })
  let answers: readonly { address: string; family: number }[]
  try {
    answers = await raceAbort(resolve(url.hostname), signal)
  } catch (cause) {
    if (signal.aborted) throw cause
    if (localName && !allowPrivate) throw refuseLocalName()
    const code = (cause as { code?: string }).code
    throw new FetchError(`could not resolve ${url.hostname} (${code ?? 'lookup failed'})`, {
      kind: 'network',
      url: requested,
      retryable: code === 'EAI_AGAIN',
      cause,
    })
  }
  const pins: Pin[] = []
  for (const answer of answers) {
    const parsed = parseHostLiteral(answer.address)
    if (!parsed) continue
    // Refuse if any answer is non-public: a mixed answer is how DNS rebinding hides an internal address.
    const reason = allowPrivate ? undefined : blockedAddressReason(parsed.address)
    if (reason) {
      throw new FetchError(
        `refused to fetch ${describe(url)}: ${url.hostname} resolves to ${parsed.address}, a ${reason}; ${ALLOW_HINT}`,
        { kind: 'blocked', url: requested },
      )
    }
    pins.push(parsed)
  }
  if (localName && !allowPrivate) throw refuseLocalName()
  if (pins.length === 0)
    throw new FetchError(`could not resolve ${url.hostname} (no addresses)`, {
      kind: 'network',
      url: requested,
      retryable: false,
    })
  return pins
}

function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason)
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort)
        resolve(value)
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort)
        reject(error)
      },
    )
  })
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void

/**
 * A `net.connect` lookup that only ever answers with the addresses vetted for that host name in this call,
 * so the socket goes to exactly what was checked: no second DNS query, no rebinding window.
 */
function pinnedLookup(pins: Map<string, Pin[]>) {
  return (hostname: string, options: { all?: boolean } | number, callback: LookupCallback): void => {
    const vetted = pins.get(hostname.toLowerCase())
    if (!vetted || vetted.length === 0) {
      const error: NodeJS.ErrnoException = new Error(`no vetted address for ${hostname}`)
      error.code = 'ENOTFOUND'
      callback(error, '')
      return
    }
    if (typeof options === 'object' && options.all)
      callback(
        null,
        vetted.map((p) => ({ address: p.address, family: p.family })),
      )
    else callback(null, vetted[0]?.address ?? '', vetted[0]?.family)
  }
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value
  }
  return out
}

function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
}

function typeAllowed(type: string, allowed: readonly string[]): boolean {
  return allowed.some((pattern) => {
    const p = pattern.trim().toLowerCase()
    if (!p.includes('*')) return p === type
    const regex = new RegExp(
      `^${p
        .split('*')
        .map((part) => part.replace(/[.+?^${}()|[\]\\/]/g, '\\$&'))
        .join('[^/]*')}$`,
    )
    return regex.test(type)
  })
}

/** A media type for a body the server did not label, from its first bytes (a cut-down WHATWG MIME sniff). */
function sniffType(body: Buffer): string {
  const head = body.subarray(0, 1024).toString('latin1')
  const trimmed = head
    .replace(/^\uFEFF|^\xEF\xBB\xBF/, '')
    .trimStart()
    .toLowerCase()
  if (/^<(!doctype html|html|head|body|script|iframe|h1|div|font|table|a|style|title|b|br|p|!--)[\s>]/.test(trimmed))
    return 'text/html'
  if (trimmed.startsWith('<?xml')) return 'text/xml'
  if (/^[{[]/.test(trimmed)) {
    try {
      JSON.parse(body.toString('utf8'))
      return 'application/json'
    } catch {
      // Not JSON after all: fall through to the text/binary check.
    }
  }
  for (const byte of body.subarray(0, 1024)) {
    if (
      byte === 0 ||
      (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0c && byte !== 0x0d && byte !== 0x1b)
    )
      return 'application/octet-stream'
  }
  return 'text/plain'
}

/** Counts bytes flowing through and fails the pipeline as soon as the cap is passed. */
class ByteCap extends Transform {
  bytes = 0
  constructor(
    private readonly maxBytes: number,
    private readonly onExceeded: () => Error,
  ) {
    super()
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length
    if (this.bytes > this.maxBytes) callback(this.onExceeded())
    else callback(null, chunk)
  }
}

/**
 * `Content-Encoding: deflate` is meant to be zlib-wrapped, but some servers send raw deflate; decide from the
 * first two bytes (a zlib header has CM=8 and a checksum divisible by 31), as browsers do.
 */
class AutoInflate extends Transform {
  private inner: Transform | undefined

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (!this.inner) {
      const b0 = chunk[0] ?? 0
      const b1 = chunk[1] ?? 0
      const zlibWrapped = (b0 & 0x0f) === 8 && ((b0 << 8) | b1) % 31 === 0
      const inner = zlibWrapped ? createInflate() : createInflateRaw()
      inner.on('data', (data: Buffer) => this.push(data))
      inner.on('error', (error) => this.destroy(error))
      this.inner = inner
    }
    this.inner.write(chunk, () => callback())
  }

  override _flush(callback: TransformCallback): void {
    if (!this.inner) {
      callback()
      return
    }
    this.inner.once('end', () => callback())
    this.inner.end()
  }

  override _destroy(error: Error | null, callback: (error: Error | null) => void): void {
    this.inner?.destroy()
    callback(error)
  }
}

function decodersFor(contentEncoding: string | undefined, requested: string): Transform[] {
  const codings = (contentEncoding ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity')
  // Codings are listed in the order they were applied, so undo them last-first.
  return codings.reverse().map((coding) => {
    if (coding === 'gzip' || coding === 'x-gzip') return createGunzip()
    if (coding === 'deflate') return new AutoInflate()
    if (coding === 'br') return createBrotliDecompress()
    throw new FetchError(`unsupported content-encoding ${truncate(coding, 40)}`, {
      kind: 'unsupported_type',
      url: requested,
    })
  })
}

function retryableStatus(status: number): boolean {
  return status === 408 || status === 425 || status === 429 || status >= 500
}

function closeQuietly(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => {})
  body.destroy()
}

/**
 * Reads a response body through a byte cap on the wire, the decoders its `content-encoding` names, and a second cap
 * after decompression (a small gzip can expand to gigabytes). A body that cannot be decoded is a `network` error.
 */
async function readCappedBody(
  res: Pick<Dispatcher.ResponseData, 'body' | 'statusCode'>,
  context: {
    encoding: string | undefined
    describeUrl: string
    requested: string
    maxBytes: number
    signal: AbortSignal
  },
): Promise<{ body: Buffer; bytes: number }> {
  const { encoding, describeUrl, requested, maxBytes, signal } = context
  let decoders: Transform[]
  try {
    decoders = decodersFor(encoding, requested)
  } catch (error) {
    closeQuietly(res.body)
    throw error
  }
  const tooLarge = (stage: string) => () =>
    new FetchError(`refused ${describeUrl}: body is over the ${maxBytes}-byte limit ${stage}`, {
      kind: 'too_large',
      url: requested,
      status: res.statusCode,
    })
  const chunks: Buffer[] = []
  let bytes = 0
  try {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(chunk)
        bytes += chunk.length
        callback()
      },
    })
    const stages: (NodeJS.ReadableStream | NodeJS.WritableStream | NodeJS.ReadWriteStream)[] = [
      res.body,
      new ByteCap(maxBytes, tooLarge('on the wire')),
      ...decoders,
      new ByteCap(maxBytes, tooLarge('after decompression')),
      sink,
    ]
    await pipeline(stages, { signal })
  } catch (error) {
    if (isFetchError(error) || signal.aborted) throw error
    const code = (error as { code?: string }).code ?? ''
    if (
      decoders.length > 0 &&
      (code.startsWith('Z_') || code.startsWith('ERR_BROTLI') || code === 'ERR__ERROR_FORMAT_PADDING_1')
    ) {
      throw new FetchError(`could not decode the ${encoding} body of ${describeUrl}`, {
        kind: 'network',
        url: requested,
        status: res.statusCode,
        retryable: false,
        cause: error,
      })
    }
    throw error
  }
  return { body: Buffer.concat(chunks, bytes), bytes }
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
  const allowPrivate = options.allowPrivateHosts ?? env.SEARCH_LAYER_ALLOW_PRIVATE_HOSTS === '1'
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
        allowPrivate || allowHosts.has(current.hostname.toLowerCase()),
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
      const declaredMedia = mediaType(declaredType)
      if (declaredMedia !== '' && !typeAllowed(declaredMedia, allowedTypes)) {
        closeQuietly(res.body)
        throw new FetchError(
          `refused ${describe(current)}: content type ${truncate(declaredMedia, 80)} is not allowed`,
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
      const contentType = declaredMedia === '' ? sniffType(body) : declaredMedia
      if (declaredMedia === '' && !typeAllowed(contentType, allowedTypes)) {
        throw new FetchError(
          `refused ${describe(current)}: unlabelled body looks like ${contentType}, which is not allowed`,
          { kind: 'unsupported_type', url: requested, status: res.statusCode },
        )
      }
      const { charset } = detectCharset(body, declaredType ?? contentType)
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
        text: decodeBody(body, charset),
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
