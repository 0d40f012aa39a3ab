import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createSearchLayer } from '@search-layer/engine'
import { useEmulator } from '@search-layer/testkit/vitest'
import { beforeAll, describe, expect, it } from 'vitest'
import { createMcpHttpHandler } from './index.js'

const emu = useEmulator()
let env: Record<string, string>
beforeAll(async () => {
  // The keyed engines only: keyless sources (always configured) and Bocha are left out of what is advertised.
  env = {
    ...emu.env,
    HOME: mkdtempSync(join(tmpdir(), 'sl-mcp-http-')),
    SEARCH_LAYER_RATE_LIMITS: 'off',
    SEARCH_LAYER_KEYLESS: 'off',
    BOCHA_API_KEY: '',
  }
})

const searchCalls = () => emu.requests.filter((r) => ['brave', 'exa', 'tavily', 'grok'].includes(r.service)).length

const post = (body: string, headers: Record<string, string> = {}) =>
  new Request('http://localhost/mcp', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
      ...headers,
    },
    body,
  })

const toolsCall = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'web_search', arguments: { query: `batched search ${id}` } },
})

describe('createMcpHttpHandler: one JSON-RPC message per POST', () => {
  const handler = () => createMcpHttpHandler({ env, layer: createSearchLayer({ env, rateLimits: false }) })

  it.each([
    ['100 tools/call', Array.from({ length: 100 }, (_, i) => toolsCall(i + 1))],
    ['one tools/call', [toolsCall(1)]],
    ['an empty array', []],
    ['tools/call with a notification', [toolsCall(1), { jsonrpc: '2.0', method: 'notifications/initialized' }]],
    [
      'initialize and tools/call',
      [
        {
          jsonrpc: '2.0',
          id: 0,
          method: 'initialize',
          params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 't', version: '1' } },
        },
        toolsCall(1),
      ],
    ],
    ['only notifications', [{ jsonrpc: '2.0', method: 'notifications/initialized' }]],
    ['more than the SDK cap (101)', Array.from({ length: 101 }, (_, i) => toolsCall(i + 1))],
  ])('refuses a batch of %s with -32600 before running any of it', async (_, batch) => {
    const response = await handler()(post(JSON.stringify(batch)))
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: expect.stringMatching(/batches are not supported .*send one message per POST/) },
      id: null,
    })
    expect(searchCalls()).toBe(0)
  })

  it('runs a single tools/call', async () => {
    const response = await handler()(post(JSON.stringify(toolsCall(7))))
    expect(response.status).toBe(200)
    const text = await response.text()
    expect(text).toMatch(/"id":7/)
    expect(text).toContain('"structuredContent"')
    expect(searchCalls()).toBeGreaterThan(0)
  })

  it('answers invalid JSON with a parse error', async () => {
    const response = await handler()(post('{"jsonrpc":'))
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({ error: { code: -32700 } })
  })

  it('refuses a body over 4 MiB, declared or streamed, without reading it all', async () => {
    const big = 'x'.repeat(4 * 1024 * 1024 + 1)
    expect((await handler()(post(big))).status).toBe(413)
    const declared = await handler()(post('{}', { 'content-length': String(5 * 1024 * 1024) }))
    expect(declared.status).toBe(413)
  })
})
