import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { useEmulator } from '@search-layer/testkit/vitest'
import { afterEach, describe, expect, it } from 'vitest'
import { serverOptionsFromEnv } from '../src/index.js'
import { type Booted, TAVILY_ONLY, boot, upstreamCalls } from './_helpers.js'

const emu = useEmulator()
const servers: Booted[] = []
const clients: Client[] = []
const start = async (options: Parameters<typeof boot>[1] = {}) => {
  const server = await boot(emu, options)
  servers.push(server)
  return server
}

/** The SDK's own client over Streamable HTTP, optionally with a bearer key. */
async function connect(srv: Booted, key?: string): Promise<Client> {
  const client = new Client({ name: 'server-e2e', version: '1.0.0' })
  const transport = new StreamableHTTPClientTransport(new URL(`${srv.url}/mcp`), {
    ...(key && { requestInit: { headers: { authorization: `Bearer ${key}` } } }),
  })
  await client.connect(transport)
  clients.push(client)
  return client
}

type TextContent = { type: 'text'; text: string }[]

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()))
  await Promise.all(servers.splice(0).map((s) => s.close()))
})

describe('MCP over Streamable HTTP at /mcp', () => {
  it('lists the shared tools, advertising only the configured engines', async () => {
    const srv = await start({ envOverride: TAVILY_ONLY })
    const client = await connect(srv)
    const { tools } = await client.listTools()
    expect(tools.map((t) => t.name)).toEqual(['web_search', 'web_fetch', 'fetch_thread', 'extract_refs', 'answer'])
    const webSearch = tools.find((t) => t.name === 'web_search')!
    expect(webSearch.description).toContain('Live engines: tavily.')
    expect(webSearch.inputSchema.properties).toMatchObject({
      max_results: { type: 'integer', maximum: 10, default: 5 },
    })
    expect(webSearch.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: true })
  })

  it('calls web_search on the server engine: results as text, the response as structuredContent', async () => {
    const srv = await start()
    const client = await connect(srv)
    const result = await client.callTool({
      name: 'web_search',
      arguments: { query: 'rust async runtime tokio', max_results: 3 },
    })
    expect(result.isError).toBeFalsy()
    const structured = result.structuredContent as { results: { title: string; url: string }[] }
    expect(structured.results).toHaveLength(3)
    const text = (result.content as TextContent)[0]!.text
    for (const [i, r] of structured.results.entries()) expect(text).toContain(`[${i + 1}] ${r.title}\n    ${r.url}`)
  })

  it('shares the engine with the HTTP API: cache, metrics and history', async () => {
    const srv = await start()
    const request = { query: 'kubernetes operator pattern' }
    // The same request web_search makes by default (5 results), so the MCP call is a cache hit.
    expect((await srv.call('/v1/search', { json: { ...request, num: 5 } })).status).toBe(200)
    const client = await connect(srv)
    const before = upstreamCalls(emu)
    const result = await client.callTool({ name: 'web_search', arguments: { query: request.query } })
    expect(result.isError).toBeFalsy()
    expect((result.structuredContent as { cached: boolean }).cached).toBe(true)
    expect(upstreamCalls(emu)).toBe(before)
    const { entries } = await (await srv.call('/v1/history')).json()
    expect(entries.map((e: { query: string }) => e.query)).toEqual([request.query, request.query])
    const metrics = await (await srv.call('/metrics')).text()
    expect(metrics).toMatch(/search_layer_http_requests_total\{route="\/mcp",method="POST",status="200"\} [1-9]/)
    expect(metrics).toContain('search_layer_cache_requests_total{result="hit"} 1')
  })

  it('turns an invalid Tavily key into a friendly tool error, without the key', async () => {
    emu.fault('tavily', { status: 401 })
    const srv = await start({ envOverride: TAVILY_ONLY })
    const client = await connect(srv)
    const result = await client.callTool({ name: 'web_search', arguments: { query: 'latest langchain version' } })
    expect(result.isError).toBe(true)
    expect((result.content as TextContent)[0]!.text).toMatch(
      /Tavily rejected its API key \(invalid, expired or revoked\): check TAVILY_API_KEY\./,
    )
    expect(JSON.stringify(result)).not.toContain(emu.keys.tavily)
  })

  it('GET /mcp is 405: the endpoint is stateless', async () => {
    const srv = await start()
    const res = await srv.call('/mcp', { headers: { accept: 'text/event-stream' } })
    expect(res.status).toBe(405)
    expect(res.headers.get('allow')).toBe('POST')
  })

  describe('with SEARCH_LAYER_API_KEYS set', () => {
    const { apiKeys } = serverOptionsFromEnv({ SEARCH_LAYER_API_KEYS: 'agent:mcp-key-0123456789' })

    it('refuses a client without the bearer key with 401', async () => {
      const srv = await start({ apiKeys })
      // The SDK's StreamableHTTPError carries the HTTP status as `code`.
      await expect(connect(srv)).rejects.toMatchObject({
        code: 401,
        message: expect.stringMatching(/Missing or invalid API key/),
      })
      await expect(connect(srv, 'wrong-key-0123456789')).rejects.toMatchObject({ code: 401 })
      expect(upstreamCalls(emu)).toBe(0)
    })

    it('serves a client with the bearer key, recording its searches under the key name', async () => {
      const srv = await start({ apiKeys })
      const client = await connect(srv, 'mcp-key-0123456789')
      expect((await client.listTools()).tools.length).toBe(5)
      const result = await client.callTool({ name: 'web_search', arguments: { query: 'what is webtransport' } })
      expect(result.isError).toBeFalsy()
      const history = await (await srv.call('/v1/history', { key: 'mcp-key-0123456789' })).json()
      expect(history.entries[0]).toMatchObject({ query: 'what is webtransport', who: 'agent' })
      const lines = srv.logs.lines().filter((l) => l.msg === 'request' && l.path === '/mcp')
      expect(lines.length).toBeGreaterThan(0)
      expect(lines.every((l) => l.who === 'agent')).toBe(true)
      expect(srv.logs.text()).not.toContain('mcp-key-0123456789')
    })
  })
})

describe('MCP requests and the client rate limit', () => {
  const post = (srv: Booted, body: unknown) =>
    srv.call('/mcp', {
      json: body,
      headers: { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
    })
  const toolsCall = (id: number) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'web_search', arguments: { query: `rate limited search ${id}` } },
  })
  // Which of the numbered searches reached an upstream, from the emulator's request log.
  const searchesRun = (ids: number[]) =>
    ids.filter((id) =>
      emu.requests.some((r) => JSON.stringify([r.query, r.body]).includes(`rate limited search ${id}`)),
    )

  it('a batch of 100 tools/call under a limit of 3 runs no search: batches are refused, each call is a request', async () => {
    const srv = await start({ clientRateLimit: 3 })
    const ids = Array.from({ length: 100 }, (_, i) => i + 1)
    const statuses: number[] = []
    for (let round = 0; round < 5; round++) {
      const res = await post(srv, ids.map(toolsCall))
      statuses.push(res.status)
      if (res.status === 400) expect((await res.json()).error.code).toBe(-32600)
    }
    expect(statuses).toEqual([400, 400, 400, 429, 429])
    expect(searchesRun(ids)).toEqual([])
    expect(upstreamCalls(emu)).toBe(0)
  })

  it('one message per POST: the fourth tools/call under a limit of 3 is refused, so at most 3 searches run', async () => {
    const srv = await start({ clientRateLimit: 3 })
    const statuses: number[] = []
    for (const id of [1, 2, 3, 4, 5]) {
      const res = await post(srv, toolsCall(id))
      statuses.push(res.status)
      // The SSE body carries the result: read it, so the search is over before the log is checked.
      if (res.status === 200) expect(await res.text()).toContain('"structuredContent"')
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429])
    expect(searchesRun([1, 2, 3, 4, 5])).toEqual([1, 2, 3])
  })
})

describe('graceful shutdown with MCP calls in flight', () => {
  // The call is in the server's hands once an engine has been asked: a fixed 50 ms wait was not always enough on a
  // loaded machine, and a shutdown before the request arrived found nothing in flight to wait for or cut.
  const engineCalled = () =>
    expect
      .poll(() => emu.requests.some((r) => ['brave', 'exa', 'tavily', 'grok'].includes(r.service)), { timeout: 10_000 })
      .toBe(true)

  it('SIGTERM lets a streamed (SSE) tools/call finish: the client gets the whole result', async () => {
    const srv = await boot(emu, { handleSignals: true })
    const client = await connect(srv)
    // Every engine answers after 500 ms: the SSE response exists long before its result is written.
    for (const service of ['brave', 'exa', 'tavily', 'grok'] as const) emu.latency(service, 500)
    // A cut stream leaves the SDK client waiting to resume: its own timeout turns that into a failure.
    const call = client.callTool(
      { name: 'web_search', arguments: { query: 'sigterm during mcp call', max_results: 3 } },
      undefined,
      { timeout: 5000 },
    )
    await engineCalled()
    process.emit('SIGTERM', 'SIGTERM')
    const result = await call
    expect(result.isError).toBeFalsy()
    expect((result.structuredContent as { results: unknown[] }).results).toHaveLength(3)
    await srv.close() // the shutdown already under way
    expect(srv.logs.lines().some((l) => l.msg === 'shutdown timeout: cutting the remaining connections')).toBe(false)
    await expect(fetch(`${srv.url}/healthz`)).rejects.toThrow()
  })

  it('still cuts a streamed response that outlives shutdownTimeoutMs', async () => {
    const srv = await boot(emu, { shutdownTimeoutMs: 100 })
    const client = await connect(srv)
    for (const service of ['brave', 'exa', 'tavily', 'grok'] as const) emu.latency(service, 3000)
    const call = client
      .callTool({ name: 'web_search', arguments: { query: 'too slow for shutdown' } }, undefined, { timeout: 1500 })
      .then(
        () => 'answered',
        () => 'cut',
      )
    await engineCalled()
    await srv.close()
    expect(await call).toBe('cut')
    expect(srv.logs.lines().some((l) => l.msg === 'shutdown timeout: cutting the remaining connections')).toBe(true)
  })
})
