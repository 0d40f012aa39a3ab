import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv'
import { createSearchLayer } from '@search-layer/engine'
import { useEmulator } from '@search-layer/testkit/vitest'
import { beforeAll, describe, expect, it } from 'vitest'
import { type McpServerOptions, createMcpServer, toCallToolResult } from './server.js'

// Every tool's declared output schema against what the tool really sends, as the SDK client checks it: once a
// client has listed the tools, `callTool` validates each result's structuredContent and throws on a mismatch.
const emu = useEmulator()
let env: Record<string, string | undefined>

beforeAll(() => {
  env = { ...emu.env, HOME: mkdtempSync(join(tmpdir(), 'sl-mcp-schema-')), SEARCH_LAYER_KEYLESS: 'off' }
})

async function connect(options: McpServerOptions = {}) {
  const server = await createMcpServer({
    env,
    layer: createSearchLayer({ env, rateLimits: false, providerRetries: 0 }),
    ...options,
  })
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await server.connect(serverSide)
  const client = new Client({ name: 'unit', version: '1.0.0' })
  await client.connect(clientSide)
  // Listing is what arms the client's validators.
  const { tools } = await client.listTools()
  return { client, tools, close: () => client.close() }
}

const validatorFor = (tool: Tool | undefined) => {
  if (!tool?.outputSchema) throw new Error(`${tool?.name} declares no outputSchema`)
  return new AjvJsonSchemaValidator().getValidator(tool.outputSchema)
}

const calls = {
  web_search: { query: 'kubernetes operator tutorial', max_results: 10 },
  web_fetch: { url: `${'PAGES'}/article` },
  fetch_thread: { url: 'https://github.com/octo/demo/issues/1', max_comments: 10 },
  extract_refs: { urls: ['https://github.com/octo/demo/issues/1', 'https://github.com/octo/demo/pull/2'] },
} as const

const argsOf = (name: keyof typeof calls) =>
  JSON.parse(JSON.stringify(calls[name]).replace('PAGES', emu.urls.pages)) as Record<string, unknown>

describe('output schemas', () => {
  it('every tool declares an object outputSchema with its data, error and truncation', async () => {
    const { tools, close } = await connect()
    expect(tools.map((t) => t.name).sort()).toEqual([
      'answer',
      'extract_refs',
      'fetch_thread',
      'web_fetch',
      'web_search',
    ])
    for (const tool of tools) {
      expect(tool.outputSchema?.type, tool.name).toBe('object')
      expect(Object.keys(tool.outputSchema?.properties ?? {}), tool.name).toEqual(
        expect.arrayContaining(['error', 'truncation']),
      )
    }
    const props = (name: string) => Object.keys(tools.find((t) => t.name === name)?.outputSchema?.properties ?? {})
    expect(props('web_search')).toEqual(expect.arrayContaining(['results', 'providers', 'answer', 'queries']))
    expect(props('web_fetch')).toEqual(expect.arrayContaining(['markdown', 'finalUrl', 'links', 'totalChars']))
    expect(props('fetch_thread')).toEqual(expect.arrayContaining(['refs', 'commentCount', 'metadata']))
    expect(props('extract_refs')).toEqual(expect.arrayContaining(['results', 'truncated']))
    expect(props('answer')).toEqual(expect.arrayContaining(['id', 'sentences', 'passages', 'abstained']))
    await close()
  })

  it('the schemas are not vacuous: a wrong type or an unknown field is refused', async () => {
    const { tools, close } = await connect()
    const search = validatorFor(tools.find((t) => t.name === 'web_search'))
    expect(search({ results: 'not a list' }).valid).toBe(false)
    expect(search({ resultz: [] }).valid).toBe(false)
    expect(search({ error: { kind: 'auth' } }).valid).toBe(false)
    await close()
  })

  for (const name of Object.keys(calls) as (keyof typeof calls)[]) {
    it(`${name}: a real call passes the client's validation`, async () => {
      const { client, close } = await connect()
      const result = await client.callTool({ name, arguments: argsOf(name) })
      expect(result.isError).toBeFalsy()
      expect(result.structuredContent).toBeDefined()
      await close()
    })
  }

  for (const name of Object.keys(calls) as (keyof typeof calls)[]) {
    it(`${name}: a result trimmed to 500 characters still validates`, async () => {
      const { client, close } = await connect({ maxChars: 500 })
      const result = await client.callTool({ name, arguments: argsOf(name) })
      expect(result.isError).toBeFalsy()
      expect(result.structuredContent).toHaveProperty('truncation.maxChars', 500)
      expect(JSON.stringify(result.structuredContent).length).toBeLessThanOrEqual(500)
      await close()
    })
  }

  it('a result too large to trim (only `truncation` left) and an error result validate too', async () => {
    const { client, tools, close } = await connect()
    const search = validatorFor(tools.find((t) => t.name === 'web_search'))
    const wide = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`field${i}`, i]))
    const fallback = toCallToolResult({ content: 'x', data: wide }, 500).structuredContent
    expect(Object.keys(fallback ?? {})).toEqual(['truncation'])
    expect(search(fallback).valid).toBe(true)

    // The SDK client validates structuredContent whenever it is present, an isError result included.
    const failed = await client.callTool({ name: 'web_fetch', arguments: { url: `${emu.urls.pages}/not-found` } })
    expect(failed.isError).toBe(true)
    expect(failed.structuredContent).toMatchObject({ error: { kind: expect.any(String), message: expect.any(String) } })
    await close()
  })
})
