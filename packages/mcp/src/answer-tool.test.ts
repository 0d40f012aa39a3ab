import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { createSearchLayer } from '@search-layer/engine'
import { braveAnswer } from '@search-layer/testkit'
import { useEmulator } from '@search-layer/testkit/vitest'
import { beforeEach, describe, expect, it } from 'vitest'
import { createMcpServer } from './server.js'

// The `answer` tool over MCP: Brave, the only engine, finds one invented page the emulator serves, so an answer can
// come from nowhere else. No model is configured: the answer is extractive. Written for these tests.
const emu = useEmulator()
const FACT = 'Zorblax 4.2 was released on 3 March 2026 by the Zorblax maintainers.'
let env: Record<string, string | undefined>

beforeEach(() => {
  const home = mkdtempSync(join(tmpdir(), 'sl-mcp-answer-'))
  env = {
    BRAVE_API_KEY: emu.env.BRAVE_API_KEY,
    BRAVE_API_URL: emu.env.BRAVE_API_URL,
    SEARCH_LAYER_ALLOW_PRIVATE_HOSTS: '1',
    SEARCH_LAYER_KEYLESS: 'off',
    SEARCH_LAYER_HISTORY_DIR: join(home, 'conversations'),
    HOME: home,
  }
  emu.pages.set('/ask/zorblax', {
    body: `<!DOCTYPE html><html><head><title>Zorblax 4.2 release notes</title></head><body><main><article><h1>Zorblax 4.2 release notes</h1><p>${FACT} It ships a new streaming parser.</p><p>Support for Node 16 was dropped in this release, and the minimum is now Node 20.</p></article></main></body></html>`,
  })
  const results = [
    { title: 'Zorblax 4.2 release notes', url: `${emu.urls.pages}/ask/zorblax`, description: 'Zorblax 4.2 is out.' },
  ]
  emu.fault('brave', braveAnswer(results))
})

async function connect() {
  const server = await createMcpServer({ env, layer: createSearchLayer({ env, cache: false }) })
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await server.connect(serverSide)
  const client = new Client({ name: 'unit', version: '1.0.0' })
  await client.connect(clientSide)
  // Listing arms the client's output validation: every answer below is checked against the declared schema.
  const { tools } = await client.listTools()
  expect(tools.find((t) => t.name === 'answer')?.outputSchema?.type).toBe('object')
  return client
}

type Structured = { id: string; mode: string; abstained: boolean; counts: { supported: number } }

describe('the answer tool', { timeout: 60_000 }, () => {
  it('answers with each sentence marked and the result as structured content; a follow-up carries the id', async () => {
    const client = await connect()
    const first = await client.callTool({ name: 'answer', arguments: { question: 'When was Zorblax 4.2 released?' } })
    expect(first.isError).toBeFalsy()
    const text = (first.content as { text: string }[])[0]?.text ?? ''
    expect(text).toMatch(/Mode: extractive/)
    expect(text).toMatch(/✓ .*released on 3 March 2026/)
    const structured = first.structuredContent as Structured
    expect(structured).toMatchObject({ mode: 'extractive', abstained: false, counts: { supported: 1 } })
    const next = await client.callTool({
      name: 'answer',
      arguments: { question: 'Which Node version is the minimum?', conversation_id: structured.id },
    })
    expect(next.structuredContent).toMatchObject({ id: structured.id, turn: 2 })
    await client.close()
  })

  it('an unknown conversation_id is an error result naming the field', async () => {
    const client = await connect()
    const result = await client.callTool({
      name: 'answer',
      arguments: { question: 'why?', conversation_id: '20261207-000000-abcdef' },
    })
    expect(result.isError).toBe(true)
    expect((result.content as { text: string }[])[0]?.text).toMatch(/conversationId/)
    await client.close()
  })
})
