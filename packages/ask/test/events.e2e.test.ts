import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type SearchLayer, createSearchLayer } from '@search-layer/engine'
import { useEmulator } from '@search-layer/testkit/vitest'
import { beforeEach, describe, expect, it } from 'vitest'
import { type AskEvent, AskEventSchema, type AskInput, ask } from '../src/index.js'
import { FACT, askEnv, seedSearch } from './_fixtures.js'
import { passageIdWith, scriptModel } from './_script.js'

const emu = useEmulator()
let home: string
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'sl-ask-events-'))
  seedSearch(emu)
})

/**
 * A layer whose searches wait until the listener has heard `tool-start` for them: were events held back until the
 * turn ended, the search would never run and the guard would fail the ask.
 */
function gatedLayer(layer: SearchLayer, heard: () => boolean): SearchLayer {
  const search: SearchLayer['search'] = async (request, options) => {
    for (let waited = 0; !heard(); waited += 20) {
      if (waited > 30_000) throw new Error('tool-start was not heard while the tool ran')
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    return layer.search(request, options)
  }
  return Object.assign(Object.create(layer), { search })
}

const run = (input: AskInput, onEvent: (event: AskEvent) => void, heard: () => boolean = () => true) => {
  const env = askEnv(emu, home)
  const layer = gatedLayer(createSearchLayer({ env, cache: false }), heard)
  return ask({ sources: ['brave'], ...input }, { env, layer, onEvent })
}

const shape = (e: AskEvent) => `${e.type}:${'tool' in e ? e.tool : e.turn}`

describe('ask events', { timeout: 60_000 }, () => {
  it('announces turns and tool calls as they happen, in order, before the answer', async () => {
    scriptModel(emu, (req, n) => {
      if (n === 0) return { calls: [{ name: 'web_search', args: { query: 'Zorblax 4.2 release date' } }] }
      if (n === 1) return { calls: [{ name: 'web_fetch', args: { url: `${emu.urls.pages}/ask/zorblax-design` } }] }
      return { text: `It came out on 3 March 2026. [${passageIdWith(req, FACT)}: "released on 3 March 2026"]` }
    })
    const events: AskEvent[] = []
    let answered = false
    const onEvent = (event: AskEvent) => {
      expect(answered).toBe(false)
      events.push(AskEventSchema.parse(event))
    }
    const heard = () => events.some((e) => e.type === 'tool-start' && e.tool === 'web_search')
    const result = await run({ question: 'When was Zorblax 4.2 released?' }, onEvent, heard)
    answered = true
    expect(events.map(shape)).toEqual([
      'turn-start:1',
      'tool-start:web_search',
      'tool-end:web_search',
      'turn-end:1',
      'turn-start:2',
      'tool-start:web_fetch',
      'tool-end:web_fetch',
      'turn-end:2',
      'turn-start:3',
      'turn-end:3',
    ])
    const [search, searched] = [events[1], events[2]]
    expect(search).toMatchObject({ turn: 1, args: { query: 'Zorblax 4.2 release date' } })
    expect(searched).toMatchObject({ call: (search as { call: string }).call, ok: true, results: 2, turn: 1 })
    expect(events[3]).toMatchObject({ ok: true, calls: ['web_search'], summary: 'called web_search', tokens: 120 })
    expect(events[8]).toMatchObject({ tools: true })
    expect(events[9]).toMatchObject({ summary: 'answered', calls: [] })
    // `at` never goes back; each tool-end pairs with its start.
    const at = events.map((e) => e.at)
    expect(at).toEqual([...at].sort((a, b) => a - b))
    expect(result.steps.map((s) => s.tool ?? s.kind)).toEqual(['model', 'web_search', 'model', 'web_fetch', 'model'])
    expect((searched as { passages: string[] }).passages).toEqual(result.steps[1]?.passages)
  })

  it('reports a failed tool with its error, an invalid call, and the extractive search as turn 0', async () => {
    emu.fault('pages', { status: 500 })
    scriptModel(emu, (_request, n) => {
      if (n === 0) return { calls: [{ name: 'web_fetch', args: { url: `${emu.urls.pages}/ask/zorblax-design` } }] }
      if (n === 1) return { calls: [{ name: 'no_such_tool', args: {} }] }
      return { calls: [{ name: 'no_such_tool', args: {} }] }
    })
    const events: AskEvent[] = []
    await run({ question: 'Why did Zorblax add a streaming parser?' }, (e) => events.push(e))
    const fetched = events.find((e) => e.type === 'tool-end' && e.tool === 'web_fetch')
    expect(fetched).toMatchObject({ ok: false, turn: 1, error: expect.stringMatching(/^failed: /) })
    const invalid = events.filter((e) => 'tool' in e && e.tool === 'no_such_tool')
    expect(invalid.map(shape)).toEqual([
      'tool-start:no_such_tool',
      'tool-end:no_such_tool',
      'tool-start:no_such_tool',
      'tool-end:no_such_tool',
    ])
    expect(invalid.map((e) => e.turn)).toEqual([2, 2, 3, 3])
    // The model gave up: the extractive answer's own search is a tool call of no model turn.
    const last = events.slice(-2)
    expect(last.map(shape)).toEqual(['tool-start:web_search', 'tool-end:web_search'])
    expect(last.map((e) => e.turn)).toEqual([0, 0])
  })
})
