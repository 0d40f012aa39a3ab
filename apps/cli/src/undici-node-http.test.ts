import { type IncomingMessage, type Server, createServer } from 'node:http'
import { type AddressInfo, connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

interface ShimResponse {
  statusCode: number
  headers: Record<string, string | string[] | undefined>
  body: AsyncIterable<Uint8Array> & { destroy(): void }
}
interface Shim {
  Agent: new (options?: { keepAliveTimeout?: number }) => { close(): Promise<void> }
  EnvHttpProxyAgent: new (options: { httpProxy: string }) => { close(): Promise<void> }
  request(
    url: string,
    options: {
      dispatcher: unknown
      method?: string
      headers?: Record<string, string>
      body?: string
      signal?: AbortSignal
    },
  ): Promise<ShimResponse>
}
const SHIM = './_undici-node-http.mjs'
const shim = (await import(SHIM)) as Shim

async function text(body: AsyncIterable<Uint8Array>): Promise<string> {
  const chunks: Uint8Array[] = []
  for await (const chunk of body) chunks.push(chunk)
  return Buffer.concat(chunks).toString('utf8')
}

const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

// Echoes what arrived; /hang never answers.
const upstream = createServer(async (req: IncomingMessage, res) => {
  if (req.url === '/hang') return
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
  it('answers like undici: status, lower-case headers, an async-iterable body; a string body gets its length', async () => {
    const agent = new shim.Agent({ keepAliveTimeout: 1000 })
    const res = await shim.request(`${upstreamUrl}/search?q=bun`, {
      dispatcher: agent,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"q":"bün"}',
    })
    expect(res.statusCode).toBe(200)
    expect(res.headers['x-ratelimit-remaining']).toBe('0, 1990')
    expect(JSON.parse(await text(res.body))).toEqual({
      method: 'POST',
      url: '/search?q=bun',
      length: String(Buffer.byteLength('{"q":"bün"}')),
      body: '{"q":"bün"}',
    })
    await agent.close()
  })

  it('rejects when the signal aborts a call that gets no answer', async () => {
    const agent = new shim.Agent()
    const controller = new AbortController()
    const pending = shim.request(`${upstreamUrl}/hang`, { dispatcher: agent, signal: controller.signal })
    setTimeout(() => controller.abort(), 20)
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' })
    await agent.close()
  })

  it('sends through the proxy with undici itself when HTTP_PROXY is set', async () => {
    const agent = new shim.EnvHttpProxyAgent({ httpProxy: proxyUrl })
    const before = proxied
    const res = await shim.request(`${upstreamUrl}/via-proxy`, { dispatcher: agent })
    expect(JSON.parse(await text(res.body))).toMatchObject({ method: 'GET', url: '/via-proxy' })
    expect(proxied).toBe(before + 1)
    await agent.close()
  })

  it('refuses a call without a dispatcher', async () => {
    await expect(shim.request(`${upstreamUrl}/x`, { dispatcher: undefined })).rejects.toThrow(
      /needs options.dispatcher/,
    )
  })
})
