import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { Progress } from '@modelcontextprotocol/sdk/types.js'
import { createSearchLayer } from '@search-layer/engine'
import { type Emulator, startEmulator } from '@search-layer/testkit'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createMcpHttpHandler } from '../src/index.js'
import { serveWebHandler } from './_http.js'

const FIXTURE = fileURLToPath(new URL('./fixtures/stdio-server.mjs', import.meta.url))
const DIST = fileURLToPath(new URL('../dist/index.js', import.meta.url))
const SEARCH_SERVICES = ['brave', 'exa', 'tavily', 'grok'] as const

let emu: Emulator
let env: Record<string, string>
const closers: (() => Promise<void>)[] = []

beforeAll(async () => {
  emu = await startEmulator({ latencyMs: { brave: 30, exa: 60, tavily: 90, grok: 120 } })
  // The keyed engines only: keyless sources (always configured) and Bocha are left out of what is advertised.
  env = {
    ...emu.env,
    HOME: mkdtempSync(join(tmpdir(), 'sl-mcp-')),
    SEARCH_LAYER_RATE_LIMITS: 'off',
    SEARCH_LAYER_KEYLESS: 'off',
    BOCHA_API_KEY: '',
  }
})
afterAll(async () => {
  for (const close of closers) await close()
  await emu.close()
})
beforeEach(() => emu.reset())

type Connect = () => Promise<Client>

const transports: [string, Connect][] = [
  [
    'stdio (built server in a child process)',
    async () => {
      if (!existsSync(DIST)) throw new Error(`${DIST} is missing: build the package first (npx pnpm@10 build)`)
      const client = new Client({ name: 'e2e', version: '1.0.0' })
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [FIXTURE],
          env: { ...env, PATH: process.env.PATH ?? '' },
          stderr: 'pipe',
        }),
      )
      closers.push(() => client.close())
      return client
    },
  ],
  [
    'Streamable HTTP (handler on a loopback server)',
    async () => {
      const served = await serveWebHandler(
        '/mcp',
        createMcpHttpHandler({ env, layer: createSearchLayer({ env, rateLimits: false }) }),
      )
      const client = new Client({ name: 'e2e', version: '1.0.0' })
      await client.connect(new StreamableHTTPClientTransport(new URL(served.url)))
      closers.push(async () => {
        await client.close()
        await served.close()
      })
      return client
    },
  ],
]

describe.each(transports)('MCP over %s', (_name, connect) => {
  let client: Client
  beforeAll(async () => {
    client = await connect()
  })

  it('lists the five tools, read-only and open-world, with object input and output schemas', async () => {
    const { tools } = await client.listTools()
    expect(tools.map((t) => t.name)).toEqual(['web_search', 'web_fetch', 'fetch_thread', 'extract_refs', 'answer'])
    for (const tool of tools) {
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: true })
      expect(tool.inputSchema.type).toBe('object')
      // Declared output: having listed it, the client validates every call below against it.
      expect(tool.outputSchema?.type).toBe('object')
      expect(tool.description?.length).toBeGreaterThan(40)
    }
    const search = tools[0]!
    expect(search.inputSchema.properties).toMatchObject({
      query: { type: 'string' },
      queries: { type: 'array', maxItems: 5 },
      max_results: { type: 'integer', maximum: 10 },
      sources: { type: 'array', items: { enum: ['brave', 'exa', 'tavily', 'grok'] } },
    })
    expect(search.description).toContain('Live engines: brave, exa, tavily, grok.')
    expect(client.getInstructions()).toMatch(/web_search/)
  })

  it('web_search returns text and structured results, with progress notifications on the way', async () => {
    const progress: Progress[] = []
    const result = await client.callTool(
      { name: 'web_search', arguments: { queries: ['Bun vs Deno', 'Bun runtime benchmarks'], max_results: 4 } },
      undefined,
      { onprogress: (p) => progress.push(p) },
    )
    expect(result.isError).toBeFalsy()
    const text = (result.content as { type: string; text: string }[])[0]!
    expect(text.type).toBe('text')
    expect(text.text).toContain('[1] ')
    const structured = result.structuredContent as { results: { url: string }[]; queries: string[] }
    expect(structured.queries).toEqual(['Bun vs Deno', 'Bun runtime benchmarks'])
    expect(structured.results).toHaveLength(4)
    expect(text.text).toContain(structured.results[0]!.url)
    expect(progress.length).toBeGreaterThanOrEqual(2)
    expect(progress.map((p) => p.progress)).toEqual(progress.map((_, i) => i + 1))
    expect(progress.some((p) => /results for "Bun vs Deno"/.test(p.message ?? ''))).toBe(true)
  })

  it('web_fetch returns the page as markdown', async () => {
    const result = await client.callTool({ name: 'web_fetch', arguments: { url: `${emu.urls.pages}/article` } })
    expect(result.isError).toBeFalsy()
    expect((result.content as { text: string }[])[0]!.text).toMatch(
      /^Fetched page [^\n]*\n[^\n]*\n<<<page-content [0-9a-f]{8}>>>\n# Structured concurrency in async Rust/,
    )
    expect(result.structuredContent).toMatchObject({ title: 'Structured concurrency in async Rust: a field guide' })
  })

  it('fetch_thread returns the thread and its references', async () => {
    const result = await client.callTool({
      name: 'fetch_thread',
      arguments: { url: 'https://github.com/octo/demo/issues/1', max_comments: 10 },
    })
    expect(result.isError).toBeFalsy()
    expect((result.content as { text: string }[])[0]!.text).toContain('## References')
    expect(result.structuredContent).toMatchObject({ type: 'github_issue', commentCount: 10 })
  })

  it('extract_refs returns references per URL', async () => {
    const result = await client.callTool({
      name: 'extract_refs',
      arguments: { urls: ['https://github.com/octo/demo/issues/1', 'https://github.com/octo/demo/pull/2'] },
    })
    expect(result.isError).toBeFalsy()
    const structured = result.structuredContent as { results: { url: string; refs: unknown[] }[] }
    expect(structured.results.map((r) => r.url)).toEqual([
      'https://github.com/octo/demo/issues/1',
      'https://github.com/octo/demo/pull/2',
    ])
    expect(structured.results[0]!.refs.length).toBeGreaterThan(5)
  })

  it('invalid arguments are a tool error with a readable message, not a protocol error', async () => {
    const result = await client.callTool({ name: 'web_search', arguments: { max_results: 50 } })
    expect(result.isError).toBe(true)
    expect((result.content as { text: string }[])[0]!.text).toMatch(/max_results|query/)
  })

  // Before the next test, whose 401s rest every key for the rest of the file.
  it('a cancelled web_search stops its upstream calls: none of them is answered', async () => {
    for (const s of SEARCH_SERVICES) emu.latency(s, 4_000)
    const controller = new AbortController()
    const call = client.callTool({ name: 'web_search', arguments: { query: 'cancel me please' } }, undefined, {
      signal: controller.signal,
    })
    const upstream = () => emu.requests.filter((r) => (SEARCH_SERVICES as readonly string[]).includes(r.service))
    await expect.poll(() => upstream().length, { timeout: 5_000 }).toBeGreaterThanOrEqual(SEARCH_SERVICES.length)
    controller.abort()
    await expect(call).rejects.toThrow()
    // Every engine call ends (the emulator sees the client hang up) without a response having been sent; a call
    // left running would end only after the 4 s latency, answered with 200.
    await expect.poll(() => upstream().every((r) => r.endedAt !== undefined), { timeout: 3_000 }).toBe(true)
    expect(upstream().map((r) => r.status)).toEqual(upstream().map(() => undefined))
  })

  it('every engine failing is a tool error naming the cause', async () => {
    for (const s of SEARCH_SERVICES) emu.fault(s, { status: 401 })
    const result = await client.callTool({ name: 'web_search', arguments: { query: 'postgres vacuum tuning guide' } })
    expect(result.isError).toBe(true)
    const text = (result.content as { text: string }[])[0]!.text
    expect(text).toMatch(/rejected its API key/)
    for (const key of Object.values(emu.keys)) expect(text).not.toContain(key)
  })

  it('advertises no list-change notifications: the tool and resource lists never change', () => {
    const capabilities = client.getServerCapabilities()
    expect(capabilities?.tools).toBeDefined()
    expect(capabilities?.tools?.listChanged).not.toBe(true)
    expect(capabilities?.resources?.listChanged).not.toBe(true)
  })

  it('serves provider status as the search-layer://providers resource', async () => {
    const { resources } = await client.listResources()
    expect(resources.map((r) => r.uri)).toContain('search-layer://providers')
    const read = await client.readResource({ uri: 'search-layer://providers' })
    const content = read.contents[0] as { mimeType: string; text: string }
    expect(content.mimeType).toBe('application/json')
    const status = JSON.parse(content.text) as {
      providers: { name: string; configured: boolean; available: boolean }[]
    }
    expect(status.providers.slice(0, 4).map((p) => [p.name, p.configured])).toEqual([
      ['brave', true],
      ['exa', true],
      ['tavily', true],
      ['grok', true],
    ])
  })
})

describe('Streamable HTTP handler', () => {
  it('answers GET and DELETE with 405: the endpoint is stateless', async () => {
    const handler = createMcpHttpHandler({ env })
    for (const method of ['GET', 'DELETE']) {
      const res = await handler(
        new Request('http://localhost/mcp', { method, headers: { accept: 'text/event-stream' } }),
      )
      expect(res.status).toBe(405)
      expect(res.headers.get('allow')).toBe('POST')
    }
  })

  it('answers a JSON body when jsonResponse is set', async () => {
    const handler = createMcpHttpHandler({ env, jsonResponse: true })
    const res = await handler(
      new Request('http://localhost/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
        }),
      }),
    )
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/application\/json/)
    const body = (await res.json()) as {
      result: { serverInfo: { name: string }; capabilities: Record<string, unknown> }
    }
    expect(body.result.serverInfo.name).toBe('search-layer')
    expect(body.result.capabilities).toHaveProperty('tools')
    expect(body.result.capabilities).toHaveProperty('resources')
  })
})
