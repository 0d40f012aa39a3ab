import { request } from 'node:http'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { useEmulator } from '@search-layer/testkit/vitest'
import { afterEach, describe, expect, it } from 'vitest'
import { type Booted, type Json, boot, upstreamCalls } from './_helpers.js'

const emu = useEmulator()
const servers: Booted[] = []
const start = async (options: Parameters<typeof boot>[1] = {}) => {
  const server = await boot(emu, options)
  servers.push(server)
  return server
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()))
})

interface Sent {
  method?: string
  headers?: Record<string, string>
  body?: unknown
}
interface Answer {
  status: number
  type: string
  text: string
  json: () => Json
}

/** One real HTTP request over loopback, with any Host header (fetch would send the URL's). */
function send(srv: Booted, path: string, { method = 'GET', headers = {}, body }: Sent = {}): Promise<Answer> {
  const payload = body === undefined ? undefined : JSON.stringify(body)
  const all = { host: `127.0.0.1:${srv.port}`, ...headers, ...(payload && { 'content-type': 'application/json' }) }
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: srv.port, path, method, headers: all }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => {
        text += chunk
      })
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          type: String(res.headers['content-type']),
          text,
          json: () => JSON.parse(text) as Json,
        }),
      )
    })
    req.on('error', reject)
    req.end(payload)
  })
}

const MCP_LIST = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }
const MCP_HEADERS = { accept: 'application/json, text/event-stream' }

/** One request of each class: data reads, a paid GET search, its event stream, tools, MCP, the page, the docs. */
const ROUTES: [string, string, Sent][] = [
  ['history', '/v1/history', {}],
  ['tool-call log', '/v1/tool-calls', {}],
  ['GET search', '/v1/search?q=rust+tokio&mode=fast', {}],
  ['POST search', '/v1/search', { method: 'POST', body: { query: 'rust tokio', mode: 'fast' } }],
  ['search events (SSE)', '/v1/search?q=rust+tokio&mode=fast', { headers: { accept: 'text/event-stream' } }],
  ['tool list', '/api/tools', {}],
  ['tool call', '/api/tools/web_search', { method: 'POST', body: { query: 'rust tokio', mode: 'fast' } }],
  ['MCP', '/mcp', { method: 'POST', body: MCP_LIST, headers: MCP_HEADERS }],
  ['metrics', '/metrics', {}],
  ['OpenAPI', '/openapi.json', {}],
]

const withHeaders = (sent: Sent, headers: Record<string, string>): Sent => ({
  ...sent,
  headers: { ...sent.headers, ...headers },
})

function webDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sl-web-'))
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>search-layer</title>')
  return dir
}

describe('Host check (DNS rebinding), server on loopback without keys', () => {
  it.each(ROUTES)(
    'refuses %s under a foreign Host with 403, in the error shape, before any upstream call',
    async (_, path, sent) => {
      const srv = await start()
      const res = await send(srv, path, withHeaders(sent, { host: `evil.example:${srv.port}` }))
      expect(res.status).toBe(403)
      expect(res.json()).toMatchObject({ code: 'host_not_allowed', requestId: expect.any(String) })
      expect(res.json().error).toMatch(
        /^Host "evil\.example:\d+" is not allowed: this server answers to localhost, .*add it to --allowed-hosts or SEARCH_LAYER_ALLOWED_HOSTS \(e\.g\. evil\.example;/,
      )
      expect(upstreamCalls(emu)).toBe(0)
    },
  )

  it('refuses the web app under a foreign Host too, and serves it under its own', async () => {
    const srv = await start({ webDir: webDir() })
    expect((await send(srv, '/', { headers: { host: 'evil.example' } })).status).toBe(403)
    expect((await send(srv, '/')).text).toContain('<title>search-layer</title>')
  })

  it('answers the health probes under any Host: orchestrators probe by pod address or service name', async () => {
    const srv = await start()
    expect((await send(srv, '/healthz', { headers: { host: 'evil.example' } })).json()).toEqual({ status: 'ok' })
    expect((await send(srv, '/readyz', { headers: { host: '10.1.2.3:8787' } })).status).toBe(200)
  })

  it.each(['localhost', 'LocalHost', 'localhost.', 'app.localhost:8787', '127.0.0.1', '127.9.8.7:80', '[::1]:8787'])(
    'accepts the loopback Host %s',
    async (host) => {
      const srv = await start()
      expect((await send(srv, '/v1/history', { headers: { host } })).status).toBe(200)
    },
  )

  it('refuses a foreign name in an absolute request target, whatever the Host header says', async () => {
    const srv = await start()
    const res = await send(srv, 'http://evil.example/v1/history', { headers: { host: 'localhost' } })
    expect(res.status).toBe(403)
  })

  it('accepts the allowed hosts, a leading dot taking the domain and its subdomains', async () => {
    const srv = await start({ allowedHosts: ['search.lan', '.corp.example'] })
    for (const host of ['search.lan', 'search.lan:8787', 'corp.example', 'a.b.corp.example:443'])
      expect((await send(srv, '/v1/history', { headers: { host } })).status, host).toBe(200)
    for (const host of ['x.search.lan', 'corp.example.evil', 'evilcorp.example', '10.0.0.5'])
      expect((await send(srv, '/v1/history', { headers: { host } })).status, host).toBe(403)
  })

  it('checks no Host with allowedHosts "all", yet still refuses other sites\' pages', async () => {
    const srv = await start({ allowedHosts: true })
    expect((await send(srv, '/v1/history', { headers: { host: 'evil.example' } })).status).toBe(200)
    const res = await send(srv, '/v1/history', { headers: { origin: 'https://evil.example' } })
    expect(res.json().code).toBe('cross_origin')
  })
})

describe('Origin check (CSRF), every API, tool and MCP route', () => {
  it.each(ROUTES)('refuses %s from a foreign Origin, GET included', async (_, path, sent) => {
    const srv = await start()
    const res = await send(
      srv,
      path,
      withHeaders(sent, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }),
    )
    expect(res.status).toBe(403)
    expect(res.json()).toMatchObject({ code: 'cross_origin', requestId: expect.any(String) })
    expect(res.json().error).toMatch(
      /^Cross-origin request refused: Origin "https:\/\/evil\.example" is not this server's own; browser pages may call this server only from its own origin/,
    )
    expect(upstreamCalls(emu)).toBe(0)
  })

  it('refuses a cross-site GET that carries no Origin (an <img>, a link) by its Sec-Fetch-Site', async () => {
    const srv = await start()
    for (const site of ['cross-site', 'same-site']) {
      const res = await send(srv, '/v1/search?q=rust+tokio&mode=fast', { headers: { 'sec-fetch-site': site } })
      expect(res.status, site).toBe(403)
      expect(res.json().error).toContain(`Sec-Fetch-Site: ${site}`)
    }
    expect(upstreamCalls(emu)).toBe(0)
  })

  it('refuses a CORS preflight from another site and an opaque (null) Origin', async () => {
    const srv = await start()
    const preflight = await send(srv, '/v1/search', {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    })
    expect(preflight.status).toBe(403)
    expect((await send(srv, '/v1/history', { headers: { origin: 'null' } })).status).toBe(403)
  })

  it('serves the web app itself to a link from another site, then its own requests', async () => {
    const srv = await start({ webDir: webDir() })
    const page = await send(srv, '/', { headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' } })
    expect(page.status).toBe(200)
    const own = { origin: `http://127.0.0.1:${srv.port}`, 'sec-fetch-site': 'same-origin' }
    const search = await send(srv, '/v1/search', {
      method: 'POST',
      body: { query: 'rust tokio', mode: 'fast' },
      headers: own,
    })
    expect(search.status).toBe(200)
    expect((await send(srv, '/v1/history', { headers: { 'sec-fetch-site': 'same-origin' } })).status).toBe(200)
    expect((await send(srv, '/v1/history', { headers: { 'sec-fetch-site': 'none' } })).status).toBe(200)
    expect((await send(srv, '/v1/tool-calls', { headers: own })).status).toBe(200)
  })

  it("accepts pages on localhost (the web app's dev server) and on allowed hosts", async () => {
    const srv = await start({ allowedHosts: ['.corp.example'] })
    for (const origin of ['http://localhost:5173', 'https://app.corp.example'])
      expect((await send(srv, '/v1/history', { headers: { origin } })).status, origin).toBe(200)
  })
})

describe('server bound beyond loopback', () => {
  it('without keys: accepts IP addresses, refuses other names, unless allowed', async () => {
    const srv = await start({ host: '0.0.0.0' })
    expect((await send(srv, '/v1/history', { headers: { host: `10.1.2.3:${srv.port}` } })).status).toBe(200)
    expect((await send(srv, '/v1/history', { headers: { host: 'rebound.evil.example' } })).status).toBe(403)
  })

  it("with keys: any Host (proxies, load balancers), but still no other site's pages", async () => {
    const key = 'ci-key-0123456789'
    const srv = await start({ host: '0.0.0.0', apiKeys: [{ name: 'ci', key }] })
    const auth = { authorization: `Bearer ${key}` }
    expect((await send(srv, '/v1/history', { headers: { ...auth, host: 'search.example.com' } })).status).toBe(200)
    const res = await send(srv, '/v1/history', { headers: { ...auth, origin: 'https://evil.example' } })
    expect(res.status).toBe(403)
  })
})
