import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { braveAnswer } from '@search-layer/testkit'
import { useEmulator } from '@search-layer/testkit/vitest'
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type Booted, boot } from './_helpers.js'

// POST /v1/ask against the emulator: Brave (restricted with `sources`) finds one invented page the emulator serves,
// so an answer can come from nowhere else; the model is the emulator's scripted chat endpoint. Written for these tests.
const emu = useEmulator()
const FACT = 'Zorblax 4.2 was released on 3 March 2026 by the Zorblax maintainers.'
const QUESTION = 'When was Zorblax 4.2 released?'
const servers: Booted[] = []
let history: string

beforeEach(() => {
  history = mkdtempSync(join(tmpdir(), 'sl-server-ask-'))
  emu.pages.set('/ask/zorblax', {
    body: `<!DOCTYPE html><html><head><title>Zorblax 4.2 release notes</title></head><body><main><article><h1>Zorblax 4.2 release notes</h1><p>${FACT} It ships a new streaming parser.</p><p>Support for Node 16 was dropped in this release, and the minimum is now Node 20.</p></article></main></body></html>`,
  })
  const results = [
    { title: 'Zorblax 4.2 release notes', url: `${emu.urls.pages}/ask/zorblax`, description: 'Zorblax 4.2 is out.' },
  ]
  emu.fault('brave', braveAnswer(results))
  // One search, then an answer quoting the passage the model was shown.
  emu.llm.respond(({ model, messages }) => {
    const toolSeen = messages.some((m) => m.role === 'tool')
    const id = /\[(p\d+)\] Zorblax/.exec(messages.map((m) => m.content).join('\n'))?.[1]
    const message = toolSeen
      ? { role: 'assistant', content: `On 3 March 2026. [${id}: "released on 3 March 2026"]` }
      : {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'c1', type: 'function', function: { name: 'web_search', arguments: '{"query":"Zorblax"}' } },
          ],
        }
    const finish = toolSeen ? 'stop' : 'tool_calls'
    return {
      status: 200,
      body: {
        id: 'x',
        object: 'chat.completion',
        created: 1,
        model,
        choices: [{ index: 0, message, finish_reason: finish }],
      },
    }
  })
})
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()))
})
afterAll(async () => {
  await shared?.close()
})

// The cases without settings of their own share one server (its conversations are told apart by id). A server's
// close stops the process-wide extraction workers, and a worker started from the sources costs about a second of
// CPU.
let shared: Booted | undefined
const start = async (env?: Record<string, string | undefined>) => {
  if (!env) {
    shared ??= await boot(emu, { envOverride: { SEARCH_LAYER_HISTORY_DIR: history, SEARCH_LAYER_KEYLESS: 'off' } })
    return shared
  }
  const server = await boot(emu, {
    envOverride: { SEARCH_LAYER_HISTORY_DIR: history, SEARCH_LAYER_KEYLESS: 'off', ...env },
  })
  servers.push(server)
  return server
}
const body = (extra: Record<string, unknown> = {}) => ({ question: QUESTION, sources: ['brave'], ...extra })

describe('POST /v1/ask', { timeout: 60_000 }, () => {
  it('answers as JSON with a verified quote, and follows up with conversationId', async () => {
    const srv = await start()
    const res = await srv.call('/v1/ask', { json: body() })
    expect(res.status).toBe(200)
    const result = await res.json()
    expect(result).toMatchObject({ mode: 'model', abstained: false, counts: { supported: 1 }, turn: 1 })
    const next = await (
      await srv.call('/v1/ask', { json: body({ question: 'Who released it?', conversationId: result.id }) })
    ).json()
    expect(next).toMatchObject({ id: result.id, turn: 2 })
  })

  it('streams each recorded step, then done, with Accept: text/event-stream', async () => {
    const srv = await start()
    const res = await srv.call('/v1/ask', { json: body(), headers: { accept: 'text/event-stream' } })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/)
    const text = await res.text()
    const events = [...text.matchAll(/^event: ([\w-]+)\ndata: (.*)$/gm)]
      .map((m) => [m[1], JSON.parse(m[2] as string)])
      .filter(([name]) => name === 'step' || name === 'done')
    expect(events.map(([name]) => name)).toEqual(['step', 'step', 'step', 'done'])
    expect(events.slice(0, 3).map(([, step]) => step.tool ?? step.kind)).toEqual(['model', 'web_search', 'model'])
    expect(events[3]?.[1]).toMatchObject({ mode: 'model', counts: { supported: 1 } })
  })

  it('answers extractively without a model', async () => {
    const srv = await start({ SEARCH_LAYER_LLM_URL: undefined })
    const result = await (await srv.call('/v1/ask', { json: body() })).json()
    expect(result).toMatchObject({ mode: 'extractive', abstained: false })
    expect(emu.count('llm')).toBe(0)
  })

  it.each([
    [{ question: '' }, 'question'],
    [{ question: 'x'.repeat(2_001) }, 'question'],
    [{ question: QUESTION, conversationId: 'Not An Id' }, 'conversationId'],
    [{ question: QUESTION, budget: { rounds: 99 } }, 'budget.rounds'],
    [{ question: QUESTION, surprise: true }, 'surprise'],
  ])('answers 400 naming the field for %j', async (json, field) => {
    const srv = await start()
    for (const accept of ['application/json', 'text/event-stream']) {
      const res = await srv.call('/v1/ask', { json, headers: { accept } })
      expect(res.status).toBe(400)
      expect(JSON.stringify(await res.json())).toContain(field)
    }
  })
})
