import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Reply, RouteContext, ServiceRoutes } from './_types.js'
import type { EmulatedService, Fault, RecordedReply, RecordedRequest } from './types.js'

const PREFIXES: readonly [string, EmulatedService][] = [
  ['/brave', 'brave'],
  ['/exa', 'exa'],
  ['/tavily', 'tavily'],
  ['/xai', 'grok'],
  ['/github', 'github'],
  ['/pages', 'pages'],
  ['/llm', 'llm'],
  ['/hn', 'hackernews'],
  ['/wikipedia', 'wikipedia'],
  ['/stackexchange', 'stackexchange'],
  ['/searxng', 'searxng'],
  ['/duckduckgo', 'duckduckgo'],
  ['/bocha', 'bocha'],
]

/** The URL prefix each service lives under. */
export const SERVICE_PREFIX: Record<EmulatedService, string> = Object.fromEntries(
  PREFIXES.map(([prefix, service]) => [service, prefix]),
) as Record<EmulatedService, string>

const MAX_REQUEST_BYTES = 10 * 1024 * 1024

interface ServerOptions {
  host: string
  port: number
  now: () => Date
  latencyMs: number | Partial<Record<EmulatedService, number>> | undefined
  routes: Record<EmulatedService, ServiceRoutes>
}

/** The HTTP server plus the mutable state tests drive (faults, latencies, the request log). */
export class EmulatorServer {
  readonly requests: RecordedRequest[] = []
  private readonly faults = new Map<EmulatedService, Fault & { remaining?: number }>()
  private readonly latencies = new Map<EmulatedService, number>()
  private readonly inFlight = new Map<EmulatedService | '*', number>()
  private readonly peak = new Map<EmulatedService | '*', number>()
  private readonly timers = new Set<NodeJS.Timeout>()
  private readonly server: Server
  private nextId = 1
  private closed = false
  url = ''

  constructor(private readonly options: ServerOptions) {
    this.server = createServer((req, res) => {
      this.dispatch(req, res).catch((error: unknown) => {
        if (!res.headersSent && !res.destroyed) {
          res.writeHead(500, { 'content-type': 'text/plain' })
          res.end(`emulator error: ${error instanceof Error ? error.message : String(error)}`)
        } else res.destroy()
      })
    })
    // Clients under test may keep sockets open; never let the server's own timeouts interfere.
    this.server.requestTimeout = 0
    this.server.headersTimeout = 0
    this.server.keepAliveTimeout = 5_000
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject)
      this.server.listen(this.options.port, this.options.host, () => {
        this.server.off('error', reject)
        resolve()
      })
    })
    const address = this.server.address() as AddressInfo
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address
    this.url = `http://${host}:${address.port}`
  }

  setFault(service: EmulatedService, fault: Fault | null): void {
    if (fault === null) this.faults.delete(service)
    else this.faults.set(service, { ...fault, ...(fault.times !== undefined && { remaining: fault.times }) })
  }

  setLatency(service: EmulatedService, ms: number): void {
    this.latencies.set(service, ms)
  }

  count(service?: EmulatedService): number {
    return service ? this.requests.filter((r) => r.service === service).length : this.requests.length
  }

  maxInFlight(service?: EmulatedService): number {
    return this.peak.get(service ?? '*') ?? 0
  }

  reset(): void {
    this.requests.length = 0
    this.faults.clear()
    this.latencies.clear()
    this.peak.clear()
    this.nextId = 1
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    for (const t of this.timers) clearTimeout(t)
    this.timers.clear()
    const done = new Promise<void>((resolve) => this.server.close(() => resolve()))
    this.server.closeAllConnections()
    await done
  }

  private latencyFor(service: EmulatedService): number {
    const set = this.latencies.get(service)
    if (set !== undefined) return set
    const opt = this.options.latencyMs
    if (typeof opt === 'number') return opt
    return opt?.[service] ?? 0
  }

  private sleep(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve()
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.timers.delete(t)
        resolve()
      }, ms)
      this.timers.add(t)
    })
  }

  private takeFault(service: EmulatedService, headers: Record<string, string>): Fault | undefined {
    const fault = this.faults.get(service)
    if (!fault) return undefined
    if (fault.key !== undefined && !Object.values(headers).some((value) => value.includes(fault.key!))) return undefined
    if (fault.remaining !== undefined) {
      fault.remaining--
      if (fault.remaining <= 0) this.faults.delete(service)
    }
    return fault
  }

  private track(service: EmulatedService, delta: number): void {
    for (const key of [service, '*'] as const) {
      const n = (this.inFlight.get(key) ?? 0) + delta
      this.inFlight.set(key, n)
      if (n > (this.peak.get(key) ?? 0)) this.peak.set(key, n)
    }
  }

  private async dispatch(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://emulator.invalid')
    const match = PREFIXES.find(([prefix]) => url.pathname === prefix || url.pathname.startsWith(`${prefix}/`))
    if (!match) {
      req.resume()
      res.writeHead(404, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ error: `no emulated service at ${url.pathname}` }))
      return
    }
    const [prefix, service] = match
    const headers: Record<string, string> = {}
    for (const [k, v] of Object.entries(req.headers))
      if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v
    const query: Record<string, string | string[]> = {}
    for (const key of new Set(url.searchParams.keys())) {
      const all = url.searchParams.getAll(key)
      query[key] = all.length === 1 ? all[0]! : all
    }
    const record: RecordedRequest = {
      id: this.nextId++,
      service,
      method: req.method ?? 'GET',
      path: url.pathname,
      query,
      headers,
      body: undefined,
      startedAt: Date.now(),
    }
    this.requests.push(record)
    this.track(service, 1)
    let finished = false
    const finish = () => {
      if (finished) return
      finished = true
      record.endedAt = Date.now()
      this.track(service, -1)
    }
    res.on('close', finish)
    res.on('finish', () => {
      record.status = res.statusCode
    })

    const rawBody = await readBody(req)
    if (rawBody === undefined) {
      res.writeHead(413, { 'content-type': 'text/plain', connection: 'close' })
      res.end('request body too large')
      return
    }
    const text = rawBody.toString('utf8')
    let body: unknown
    if (text.length > 0) {
      try {
        body = JSON.parse(text)
      } catch {
        body = text
      }
    }
    record.body = body

    const ctx: RouteContext = {
      service,
      method: record.method,
      path: url.pathname.slice(prefix.length) || '/',
      query: url.searchParams,
      headers,
      body,
      rawBody,
      now: this.options.now(),
      baseUrl: `${this.url}${prefix}`,
      req,
    }
    const routes = this.options.routes[service]
    const fault = this.takeFault(service, headers)
    await this.sleep(this.latencyFor(service) + (fault?.latencyMs ?? 0))
    if (res.destroyed || this.closed) return

    if (fault?.reset) {
      req.socket.destroy()
      return
    }
    if (fault?.hang) return
    let reply: Reply
    if (fault?.reply) {
      reply = recorded(fault.reply)
    } else if (fault?.status !== undefined) {
      reply = routes.error(fault.status, fault.code, ctx)
    } else if (fault?.html) {
      reply = htmlErrorPage()
    } else if (fault?.oversizedBytes !== undefined) {
      reply = oversized(fault.oversizedBytes)
    } else if (fault?.endlessBody) {
      reply = { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, stream: endless }
    } else {
      reply = await routes.handle(ctx)
      if (fault?.malformedJson) reply = truncate(reply)
    }
    if (fault?.retryAfterSec !== undefined)
      reply.headers = { ...reply.headers, 'retry-after': String(fault.retryAfterSec) }
    if (fault?.headers) reply.headers = { ...reply.headers, ...fault.headers }
    send(res, reply)
  }
}

function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let size = 0
    let tooLarge = false
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_REQUEST_BYTES) tooLarge = true
      else chunks.push(chunk)
    })
    req.on('end', () => resolve(tooLarge ? undefined : Buffer.concat(chunks)))
    req.on('error', () => resolve(Buffer.concat(chunks)))
    req.on('close', () => resolve(tooLarge ? undefined : Buffer.concat(chunks)))
  })
}

/** Writes a reply unless the client is already gone. */
function send(res: ServerResponse, reply: Reply): void {
  if (res.destroyed) return
  if (reply.stream) {
    res.writeHead(reply.status, reply.headers)
    reply.stream(res)
    return
  }
  const headers: Record<string, string> = { ...reply.headers }
  let payload: Buffer
  if (Buffer.isBuffer(reply.body)) payload = reply.body
  else if (typeof reply.body === 'string') payload = Buffer.from(reply.body, 'utf8')
  else if (reply.body === undefined) payload = Buffer.alloc(0)
  else {
    payload = Buffer.from(JSON.stringify(reply.body), 'utf8')
    if (!hasHeader(headers, 'content-type')) headers['content-type'] = 'application/json; charset=utf-8'
  }
  if (!hasHeader(headers, 'content-length')) headers['content-length'] = String(payload.length)
  res.writeHead(reply.status, headers)
  res.end(payload)
}

function hasHeader(headers: Record<string, string>, name: string): boolean {
  return Object.keys(headers).some((k) => k.toLowerCase() === name)
}

function truncate(reply: Reply): Reply {
  const json =
    Buffer.isBuffer(reply.body) || typeof reply.body === 'string'
      ? String(reply.body)
      : JSON.stringify(reply.body ?? {})
  const cut = json.slice(0, Math.max(1, Math.floor(json.length * 0.6)))
  // Cutting mid-document can by chance still parse (e.g. a lone number); a dangling quote never does.
  return { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: `${cut}"` }
}

// The recorded body is sent decoded and whole, so the recorded framing no longer describes it.
const FRAMING_HEADERS = new Set(['content-length', 'transfer-encoding', 'content-encoding', 'connection'])

function recorded(reply: RecordedReply): Reply {
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(reply.headers ?? {}))
    if (!FRAMING_HEADERS.has(name.toLowerCase())) headers[name] = value
  if (!hasHeader(headers, 'content-type')) headers['content-type'] = 'application/json; charset=utf-8'
  return { status: reply.status ?? 200, headers, body: reply.body }
}

function htmlErrorPage(): Reply {
  return {
    status: 200,
    headers: { 'content-type': 'text/html; charset=UTF-8' },
    body:
      '<!DOCTYPE html>\n<html lang="en-US"><head><title>Just a moment...</title><meta http-equiv="Content-Type" content="text/html; charset=UTF-8"></head>' +
      '<body><div class="main-wrapper"><h1>Error 502 Bad gateway</h1><p>The web server reported a bad gateway error.</p>' +
      '<p>Ray ID: 8e4f2c1a9b3d7e60 &bull; Performance &amp; security by Cloudflare</p></div></body></html>\n',
  }
}

function oversized(bytes: number): Reply {
  const head = '{"results":[{"title":"'
  const tail = '"}]}'
  const fill = Math.max(bytes - head.length - tail.length, 0)
  return {
    status: 200,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(head.length + fill + tail.length),
    },
    stream: (res) => {
      res.write(head)
      const chunk = Buffer.alloc(64 * 1024, 'x')
      let left = fill
      const pump = () => {
        while (left > 0 && !res.destroyed) {
          const n = Math.min(left, chunk.length)
          left -= n
          if (!res.write(n === chunk.length ? chunk : chunk.subarray(0, n))) {
            res.once('drain', pump)
            return
          }
        }
        if (!res.destroyed) res.end(tail)
      }
      pump()
    },
  }
}

/** Streams JSON-looking bytes until the client hangs up. */
export function endless(res: ServerResponse): void {
  if (!res.headersSent) res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' })
  res.write('{"results":[')
  const chunk = Buffer.from('{"title":"more","url":"https://example.com/more"},'.repeat(256))
  let stopped = false
  res.once('close', () => {
    stopped = true
  })
  const pump = () => {
    while (!stopped && !res.destroyed) {
      if (!res.write(chunk)) {
        res.once('drain', pump)
        return
      }
    }
  }
  pump()
}
