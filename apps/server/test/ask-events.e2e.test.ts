import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type ProviderDefinition, type ProviderResponse, defineProvider } from '@search-layer/core'
import { pluginProvider } from '@search-layer/testkit'
import { useEmulator } from '@search-layer/testkit/vitest'
import { afterEach, describe, expect, it } from 'vitest'
import { type Booted, type Json, boot } from './_helpers.js'

// /v1/ask's event stream against a scripted model whose search is slow: the search waits until the client has
// read the `tool-start` event of its own call, so held-back events would stall it (and fail the test). Invented
// page and facts, written for these tests.
const emu = useEmulator()
const FACT = 'Zorblax 4.2 was released on 3 March 2026 by the Zorblax maintainers.'
const servers: Booted[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()))
})

/** A keyless engine answering one page, each search only once `open()` says so (a hang guard after 30 s). */
function gatedEngine(open: () => boolean): ProviderDefinition {
  const answer = (): ProviderResponse => ({
    results: [
      {
        title: 'Zorblax 4.2 release notes',
        url: `${emu.urls.pages}/ask/zorblax`,
        snippet: 'Zorblax 4.2 is out.',
        publishedAt: null,
        provider: 'gated',
        rank: 1,
      },
    ],
  })
  const base = pluginProvider('gated', answer)
  const definition: ProviderDefinition = {
    ...base,
    create: () =>
      defineProvider({
        definition,
        run: async () => {
          for (let waited = 0; !open(); waited += 20) {
            if (waited > 30_000) throw new Error('the client never saw tool-start while the search ran')
            await new Promise((resolve) => setTimeout(resolve, 20))
          }
          return answer()
        },
      }),
  }
  return definition
}

/** Reads server-sent events as they arrive, handing each to `seen` before the next chunk is read. */
async function readEvents(res: Response, seen: (event: string, data: Json) => void): Promise<void> {
  const reader = (res.body as ReadableStream<Uint8Array>).pipeThrough(new TextDecoderStream()).getReader()
  let buffer = ''
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return
    buffer += value
    let end = buffer.indexOf('\n\n')
    while (end >= 0) {
      const block = buffer.slice(0, end)
      buffer = buffer.slice(end + 2)
      const event = /^event: (.+)$/m.exec(block)?.[1]
      const data = /^data: (.*)$/m.exec(block)?.[1]
      if (event && data) seen(event, JSON.parse(data))
      end = buffer.indexOf('\n\n')
    }
  }
}

describe('POST /v1/ask events', { timeout: 90_000 }, () => {
  it('streams turn and tool events as they happen, in order, before done', async () => {
    emu.pages.set('/ask/zorblax', {
      body: `<!DOCTYPE html><html><head><title>Zorblax 4.2 release notes</title></head><body><main><article><h1>Zorblax 4.2</h1><p>${FACT} It ships a new streaming parser.</p></article></main></body></html>`,
    })
    emu.llm.script([
      { toolCalls: [{ id: 'c1', name: 'web_search', arguments: { query: 'Zorblax 4.2' } }] },
      (request) => {
        const id = /\[(p\d+)\] Zorblax/.exec(request.messages.map((m) => m.content).join('\n'))?.[1]
        return { content: `On 3 March 2026. [${id}: "released on 3 March 2026"]` }
      },
    ])
    const events: [string, Json][] = []
    const srv = await boot(emu, {
      providers: [gatedEngine(() => events.some(([name]) => name === 'tool-start'))],
      envOverride: {
        SEARCH_LAYER_HISTORY_DIR: mkdtempSync(join(tmpdir(), 'sl-ask-events-')),
        SEARCH_LAYER_ALLOW_PRIVATE_HOSTS: '1',
        SEARCH_LAYER_KEYLESS: 'on',
      },
    })
    servers.push(srv)
    const res = await srv.call('/v1/ask', {
      json: { question: 'When was Zorblax 4.2 released?', sources: ['gated'] },
      headers: { accept: 'text/event-stream' },
    })
    expect(res.status).toBe(200)
    await readEvents(res as unknown as Response, (name, data) => events.push([name, data]))
    const live = events.filter(([name]) => name !== 'step')
    expect(live.map(([name, data]) => `${name}:${data.tool ?? data.turn ?? ''}`)).toEqual([
      'turn-start:1',
      'tool-start:web_search',
      'tool-end:web_search',
      'turn-end:1',
      'turn-start:2',
      'turn-end:2',
      'done:1',
    ])
    expect(live[1]?.[1]).toMatchObject({ type: 'tool-start', call: 'c1', args: { query: 'Zorblax 4.2' } })
    expect(live[2]?.[1]).toMatchObject({ type: 'tool-end', call: 'c1', ok: true, results: 1 })
    expect(live[2]?.[1].summary).toMatch(/^1 results, 1\/1 pages read, \d+ passages$/)
    expect(live[3]?.[1]).toMatchObject({ calls: ['web_search'], ok: true })
    expect(live[6]?.[1]).toMatchObject({ mode: 'model', counts: { supported: 1 } })
    // The recorded steps still come, each turn after the tools it called: model, web_search, model.
    const steps = events.filter(([name]) => name === 'step').map(([, s]) => s.tool ?? s.kind)
    expect(steps).toEqual(['model', 'web_search', 'model'])
  })
})
