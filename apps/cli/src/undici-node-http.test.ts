import { type IncomingMessage, type Server, createServer } from 'node:http'
import { type AddressInfo, connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

interface Controller {
  abort(reason: Error): void
  readonly aborted: boolean
}
interface Handler {
  onRequestStart?(controller: Controller, context: unknown): void
  onRequestSent?(): void
  onResponseStart?(controller: Controller, status: number, headers: Record<string, string | string[]>): void
  onResponseData?(controller: Controller, chunk: Buffer): void
  onResponseEnd?(controller: Controller, trailers: Record<string, string>): void
  onResponseError?(controller: Controller | undefined, error: Error): void
}
interface Dispatcher {
  dispatch(
    options: { origin: string; path: string; method: string; headers?: Record<string, string>; body?: string | null },
    handler: Handler,
  ): boolean
  close(): Promise<void>
}
interface Shim {
  Agent: new (options?: { keepAliveTimeout?: number }) => Dispatcher
  EnvHttpProxyAgent: new (options: { httpProxy: string }) => Dispatcher
}
const SHIM = './_undici-node-http.mjs'
const shim = (await import(SHIM)) as Shim

interface Answer {
  status: number
  headers: Record<string, string | string[]>
  body: string
  /** Handler calls in order, each once except data. */
  calls: string[]
  /** What onRequestStart was told beside the controller. */
  startContext?: unknown
}

/** Dispatches as core does and collects what the handler is told; `abortAfterMs` aborts through the controller. */
function send(
  dispatcher: Dispatcher,
  url: string,
  {
    method = 'GET',
    headers,
    body,
    abortAfterMs,
    abortAtStart = false,
  }: {
    method?: string
    headers?: Record<string, string>
    body?: string
    abortAfterMs?: number
    abortAtStart?: boolean
  } = {},
): Promise<Answer> {
  const target = new URL(url)
  return new Promise((resolve, reject) => {
    const answer: Answer = { status: 0, headers: {}, body: '', calls: [] }
    const chunks: Buffer[] = []
    dispatcher.dispatch(
      { origin: target.origin, path: `${target.pathname}${target.search}`, method, headers, body: body ?? null },
      {
        onRequestStart(controller, context) {
          answer.calls.push('start')
          answer.startContext = context
          if (abortAtStart) controller.abort(new Error('given up'))
          if (abortAfterMs !== undefined) setTimeout(() => controller.abort(new Error('given up')), abortAfterMs)
        },
        onRequestSent() {
          answer.calls.push('sent')
        },
        onResponseStart(_controller, status, responseHeaders) {
          answer.calls.push('headers')
          answer.status = status
          answer.headers = responseHeaders
        },
        onResponseData(_controller, chunk) {
          chunks.push(chunk)
        },
        onResponseEnd() {
          answer.calls.push('end')
          answer.body = Buffer.concat(chunks).toString('utf8')
          resolve(answer)
        },
        onResponseError(_controller, error) {
          reject(error)
        },
      },
    )
  })
}

async function text(body: AsyncIterable<Uint8Array>): Promise<string> {
  const chunks: Uint8Array[] = []
  for await (const chunk of body) chunks.push(chunk)
  return Buffer.concat(chunks).toString('utf8')
}

const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

// Echoes what arrived; /hang never answers. `arrived`: every request's path, in the order they came.
const arrived: string[] = []
const upstream = createServer(async (req: IncomingMessage, res) => {
  arrived.push(req.url ?? '')
  if (req.url === '/hang') return
  if (req.url === '/cut') {
    res.writeHead(200, { 'content-length': '100' })
    res.write('{"partial":')
    setTimeout(() => res.socket?.destroy(), 10)
    return
  }
  const body = await text(req)
  res.setHeader('X-RateLimit-Remaining', '0, 1990')
  res.end(JSON.stringify({ method: req.method, url: req.url, length: req.headers['content-length'] ?? null, body }))
})
// An HTTP proxy: tunnels CONNECT and forwards absolute-form requests, counting both.
let proxied = 0
const proxy = createServer((req, res) => {
  proxied++
  const target = new URL(req.url!)
  const forward = connect(Number(target.port), target.hostname, () => {
    forward.write(
      `${req.method} ${target.pathname}${target.search} HTTP/1.1\r\nhost: ${target.host}\r\nconnection: close\r\n\r\n`,
    )
  })
  forward.pipe(res.socket!)
})
proxy.on('connect', (req, socket, head) => {
  proxied++
  const [host, port] = req.url!.split(':')
  const tunnel = connect(Number(port), host!, () => {
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n')
    tunnel.write(head)
    tunnel.pipe(socket).pipe(tunnel)
  })
})

let upstreamUrl: string
let proxyUrl: string
beforeAll(async () => {
  upstreamUrl = await listen(upstream)
  proxyUrl = await listen(proxy)
})
afterAll(() => {
  upstream.closeAllConnections()
  proxy.closeAllConnections()
  upstream.close()
  proxy.close()
})

describe("the CLI bundle's undici for core: node:http", () => {
  it('dispatches like undici: status, lower-case headers, the body in chunks; a string body gets its length', async () => {
    const agent = new shim.Agent({ keepAliveTimeout: 1000 })
    const answer = await send(agent, `${upstreamUrl}/search?q=bun`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"q":"bün"}',
    })
    // The controller comes at dispatch; that the request is written, once it is (core's handler reads sentLater).
    expect(answer.calls).toEqual(['start', 'sent', 'headers', 'end'])
    expect(answer.startContext).toEqual({ sentLater: true })
    expect(answer.status).toBe(200)
    expect(answer.headers['x-ratelimit-remaining']).toBe('0, 1990')
    expect(JSON.parse(answer.body)).toEqual({
      method: 'POST',
      url: '/search?q=bun',
      length: String(Buffer.byteLength('{"q":"bün"}')),
      body: '{"q":"bün"}',
    })
    await agent.close()
  })

  it('an abort through the controller ends a call that gets no answer with the reason', async () => {
    const agent = new shim.Agent()
    await expect(send(agent, `${upstreamUrl}/hang`, { abortAfterMs: 20 })).rejects.toThrow('given up')
    await agent.close()
  })

  it('hands over its controller before connecting: an attempt given up at once is never written', async () => {
    const agent = new shim.Agent()
    await expect(send(agent, `${upstreamUrl}/search?q=never`, { abortAtStart: true })).rejects.toThrow('given up')
    await new Promise((resolve) => setTimeout(resolve, 50))
    // By path: on a loaded host the previous case's /hang, written before its abort, can arrive meanwhile.
    expect(arrived).not.toContain('/search?q=never')
    await agent.close()
  })

  it('a connection that closes mid-body is an error, not an answer', async () => {
    const agent = new shim.Agent()
    await expect(send(agent, `${upstreamUrl}/cut`)).rejects.toThrow()
    await agent.close()
  })

  it('sends through the proxy with undici itself when HTTP_PROXY is set', async () => {
    const agent = new shim.EnvHttpProxyAgent({ httpProxy: proxyUrl })
    const before = proxied
    const answer = await send(agent, `${upstreamUrl}/via-proxy`)
    expect(JSON.parse(answer.body)).toMatchObject({ method: 'GET', url: '/via-proxy' })
    expect(proxied).toBe(before + 1)
    await agent.close()
  })
})
