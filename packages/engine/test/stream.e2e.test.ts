import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ConfigError } from '@search-layer/core'
import { useEmulator } from '@search-layer/testkit/vitest'
import { beforeAll, describe, expect, it } from 'vitest'
import { type SearchLayerOptions, type SearchStreamEvent, createSearchLayer } from '../src/index.js'

const emu = useEmulator()
let home: string
beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'sl-stream-'))
})

const layer = (overrides: SearchLayerOptions = {}) =>
  createSearchLayer({ env: { ...emu.env, HOME: home }, rateLimits: false, providerRetries: 0, ...overrides })

async function collect(events: AsyncIterable<SearchStreamEvent>): Promise<SearchStreamEvent[]> {
  const out: SearchStreamEvent[] = []
  for await (const event of events) out.push(event)
  return out
}

describe('stream', () => {
  it('sends the plan first, results as each provider answers, and the response last', async () => {
    const streaming = layer({ cache: false })
    // Scoring loads on first use (seconds under vitest's transform): warm it so the timing below is the stream's.
    await streaming.search({ query: 'warm up', mode: 'fast', maxQueries: 1 })
    emu.fault('tavily', { latencyMs: 600 })
    const events = await collect(
      streaming.stream({
        query: 'rust async runtime tokio',
        mode: 'deep',
        intent: 'exploratory',
        maxQueries: 1,
        // The slow engine's answer is part of what is checked: not cut off when the others are done.
        wait: 'all',
      }),
    )
    expect(events[0]).toMatchObject({ type: 'plan', intent: 'exploratory', mode: 'deep', queries: expect.any(Array) })
    const plan = events[0] as Extract<SearchStreamEvent, { type: 'plan' }>
    expect(
      plan.engines
        .filter((e) => e.role === 'primary')
        .map((e) => e.name)
        .sort(),
    ).toEqual(['brave', 'exa', 'grok', 'tavily', 'wikipedia'])
    // The engines because deep mode asks them; the vertical because the intent does.
    expect(plan.engines.find((e) => e.name === 'brave')?.why).toBe('deep mode asks it')
    expect(plan.engines.find((e) => e.name === 'wikipedia')?.why).toBe('exploratory searches ask for reference')
    expect(plan.intent_why).toMatch(/set by the caller/)
    expect(events.at(-1)?.type).toBe('done')
    const results = events.filter((e) => e.type === 'results')
    expect(results.length).toBeGreaterThanOrEqual(2)
    // The slow provider is not in the first ranking, and the first ranking came before its answer.
    expect(results[0]!.answered).not.toContain('tavily')
    expect(results[0]!.results.length).toBeGreaterThan(0)
    const firstResults = events.indexOf(results[0]!)
    const tavilyDone = events.findIndex(
      (e) => e.type === 'progress' && e.progress.type === 'done' && e.progress.provider === 'tavily',
    )
    expect(firstResults).toBeLessThan(tavilyDone)
    // The last ranking is the response's.
    const done = events.at(-1) as Extract<SearchStreamEvent, { type: 'done' }>
    expect(results.at(-1)!.results.map((r) => r.url)).toEqual(done.response.results.map((r) => r.url))
  })

  it('reports a failing provider as progress and still finishes, plan first even with skipped providers', async () => {
    emu.fault('exa', { status: 500 })
    const events = await collect(
      layer({ cache: false, env: { ...emu.env, HOME: home, BRAVE_API_KEY: '' } }).stream({
        query: 'tokio',
        mode: 'fast',
        intent: 'exploratory',
        maxQueries: 1,
      }),
    )
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'progress',
        progress: expect.objectContaining({ type: 'failed', provider: 'exa' }),
      }),
    )
    const done = events.at(-1) as Extract<SearchStreamEvent, { type: 'done' }>
    expect(done.response.providers.exa!.status).toBe('error')
    expect(events[0]!.type).toBe('plan')
  })

  it('names the stand-in and why in the plan when a primary engine is missing', async () => {
    const events = await collect(
      layer({ cache: false, env: { ...emu.env, HOME: home, EXA_API_KEY: '' } }).stream({
        query: 'tokio',
        mode: 'fast',
        maxQueries: 1,
      }),
    )
    const plan = events[0] as Extract<SearchStreamEvent, { type: 'plan' }>
    expect(plan.type).toBe('plan')
    expect(plan.mode_why).toBe('mode "fast" was set by the caller')
    expect(plan.engines.find((e) => e.name === 'exa')).toMatchObject({
      role: 'skipped',
      why: expect.stringMatching(/not configured/),
    })
    // Tavily, not Grok (next in the slot's order, usually 8 s: see `typicalLatencyMs`), stands in for Exa.
    expect(plan.engines.find((e) => e.name === 'tavily')).toMatchObject({ role: 'stand-in', fallback_for: 'exa' })
    expect(plan.engines.find((e) => e.name === 'grok')).toMatchObject({
      role: 'skipped',
      why: expect.stringMatching(/^passed over: typically slow/),
    })
    expect(plan.engines.find((e) => e.name === 'brave')).toMatchObject({ role: 'primary' })
  })

  it('replays plan and results for a cached answer', async () => {
    const cached = layer()
    const request = { query: 'deno release notes', maxQueries: 1 }
    await cached.search(request)
    const events = await collect(cached.stream(request))
    expect(events.map((e) => e.type)).toEqual(['plan', 'results', 'done'])
    expect(events[0]).toMatchObject({ intent_why: 'answered from the cache' })
  })

  it('throws ConfigError while iterating when no provider is configured', async () => {
    const none = createSearchLayer({ env: { HOME: home, SEARCH_LAYER_KEYLESS: 'off' }, cache: false })
    await expect(collect(none.stream({ query: 'x' }))).rejects.toBeInstanceOf(ConfigError)
  })
})
