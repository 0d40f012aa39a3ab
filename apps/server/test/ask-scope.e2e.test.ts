import { mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { braveAnswer } from '@search-layer/testkit'
import { useEmulator } from '@search-layer/testkit/vitest'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { serverOptionsFromEnv } from '../src/index.js'
import { type Booted, type Json, boot } from './_helpers.js'

// Conversations belong to the API key that started them. Extractive asks (no model) over one invented page keep
// these fast; the page and facts are written for these tests.
const emu = useEmulator()
const ALICE = 'alice-key-0123456789'
const BOB = 'bob-key-9876543210'
const servers: Booted[] = []
const clients: Client[] = []
let history: string

beforeEach(() => {
  history = mkdtempSync(join(tmpdir(), 'sl-ask-scope-'))
  emu.pages.set('/ask/zorblax', {
    body: '<!DOCTYPE html><html><head><title>Zorblax 4.2</title></head><body><main><article><h1>Zorblax 4.2</h1><p>Zorblax 4.2 was released on 3 March 2026 by the Zorblax maintainers.</p></article></main></body></html>',
  })
  const results = [{ title: 'Zorblax 4.2', url: `${emu.urls.pages}/ask/zorblax`, description: 'Zorblax 4.2 is out.' }]
  emu.fault('brave', braveAnswer(results))
})
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()))
  await Promise.all(servers.splice(0).map((s) => s.close()))
})

const start = async (keys?: string) => {
  const server = await boot(emu, {
    ...(keys && { apiKeys: serverOptionsFromEnv({ SEARCH_LAYER_API_KEYS: keys }).apiKeys }),
    envOverride: { SEARCH_LAYER_HISTORY_DIR: history, SEARCH_LAYER_LLM_URL: undefined },
  })
  servers.push(server)
  return server
}
const question = (extra: Json = {}) => ({ question: 'When was Zorblax 4.2 released?', sources: ['brave'], ...extra })
const withoutRequestId = ({ requestId: _, ...body }: Json) => body

describe('conversations per API key', { timeout: 90_000 }, () => {
  it("keeps a caller out of another's conversation: the same refusal as an id that never existed", async () => {
    const srv = await start(`alice:${ALICE},bob:${BOB}`)
    const first = await (await srv.call('/v1/ask', { json: question(), key: ALICE })).json()
    expect(first).toMatchObject({ turn: 1, mode: 'extractive' })

    const follow = question({ question: 'Who released it?', conversationId: first.id })
    const never = question({ question: 'Who released it?', conversationId: '20261207-000000-0123456789abcdef' })
    for (const accept of ['application/json', 'text/event-stream']) {
      const stolen = await srv.call('/v1/ask', { json: follow, key: BOB, headers: { accept } })
      const unknown = await srv.call('/v1/ask', { json: never, key: BOB, headers: { accept } })
      expect([stolen.status, unknown.status]).toEqual([400, 400])
      const [a, b] = [await stolen.json(), await unknown.json()]
      expect(a).toMatchObject({ code: 'invalid_input', issues: [{ path: 'conversationId' }] })
      // Nothing tells the two apart but the id itself; no server path either.
      expect(JSON.stringify(withoutRequestId(a)).replace(first.id, 'ID')).toBe(
        JSON.stringify(withoutRequestId(b)).replace('20261207-000000-0123456789abcdef', 'ID'),
      )
      expect(a.error).not.toContain(history)
    }
    const bobsView = await srv.call(`/v1/conversations/${first.id}`, { key: BOB })
    expect(bobsView.status).toBe(404)
    expect((await (await srv.call('/v1/conversations', { key: BOB })).json()).conversations).toEqual([])

    // Alice continues and lists her own.
    const second = await (await srv.call('/v1/ask', { json: follow, key: ALICE })).json()
    expect(second).toMatchObject({ id: first.id, turn: 2 })
    const listed = await (await srv.call('/v1/conversations', { key: ALICE })).json()
    expect(listed.conversations).toEqual([
      expect.objectContaining({ id: first.id, turns: 2, question: first.question, lastQuestion: 'Who released it?' }),
    ])
    const whole = await (await srv.call(`/v1/conversations/${first.id}`, { key: ALICE })).json()
    expect(whole.turns.map((t: Json) => t.turn)).toEqual([1, 2])
    // The transcript is written on the server's disk; its path is no address for a caller.
    for (const body of [first, second, whole]) expect(JSON.stringify(body)).not.toContain(history)
    expect(first.transcript).toBeUndefined()
    // On disk: a directory per key, named by a hash, never the key or its name.
    const callers = readdirSync(join(history, 'callers'))
    expect(callers).toHaveLength(1)
    expect(callers[0]).toMatch(/^[0-9a-f]{32}$/)
  })

  it("keeps MCP's answer tool to the caller's own conversations too", async () => {
    const srv = await start(`alice:${ALICE},bob:${BOB}`)
    const connect = async (key: string) => {
      const client = new Client({ name: 'scope-e2e', version: '1.0.0' })
      const headers = { authorization: `Bearer ${key}` }
      await client.connect(new StreamableHTTPClientTransport(new URL(`${srv.url}/mcp`), { requestInit: { headers } }))
      clients.push(client)
      return client
    }
    const asked = await (await connect(ALICE)).callTool({
      name: 'answer',
      arguments: { question: 'When was Zorblax 4.2 released?' },
    })
    const id = (asked.structuredContent as Json).id as string
    // Alice's MCP conversation is hers over HTTP too; Bob's MCP client cannot continue it.
    const next = await srv.call('/v1/ask', { json: question({ question: 'Who?', conversationId: id }), key: ALICE })
    expect(await next.json()).toMatchObject({ id, turn: 2 })
    const result = await (await connect(BOB)).callTool({
      name: 'answer',
      arguments: { question: 'Who released it?', conversation_id: id },
    })
    expect(result.isError).toBe(true)
    expect((result.content as { text: string }[])[0]?.text).toMatch(/conversationId/)
    expect((result.content as { text: string }[])[0]?.text).not.toContain(history)
  })

  it('with auth off, every caller shares the one conversations directory', async () => {
    const srv = await start()
    const first = await (await srv.call('/v1/ask', { json: question() })).json()
    expect(readdirSync(history)).toContain(`${first.id}.json`)
    const listed = await (await srv.call('/v1/conversations')).json()
    expect(listed.conversations.map((c: Json) => c.id)).toEqual([first.id])
    const next = await srv.call('/v1/ask', { json: question({ question: 'Who?', conversationId: first.id }) })
    expect((await next.json()).turn).toBe(2)
  })
})
