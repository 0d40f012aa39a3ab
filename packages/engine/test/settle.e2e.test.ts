import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { InputError } from '@search-layer/core'
import { useEmulator } from '@search-layer/testkit/vitest'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { type SearchLayerOptions, type SearchStreamEvent, createSearchLayer, createMemoryCache } from '../src/index.js'

// "Settle, don't wait": a search returns once its mode's first engines are done and the others had a grace. The
// slow engine here hangs or answers long after the others; what is checked is what the search reports and who was
// asked, never how long anything took (the hang guard is the test's own timeout).

const emu = useEmulator()
let home: string
beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'sl-settle-'))
})

const layer = (overrides: SearchLayerOptions = {}) =>
  createSearchLayer({
    env: { ...emu.env, HOME: home },
    cache: false,
    rateLimits: false,
    providerRetries: 0,
    ...overrides,
  })

const grokCircuit = async (l: ReturnType<typeof createSearchLayer>) =>
  (await l.status()).find((s) => s.name === 'grok')!.circuit

describe('settle, do not wait for the slowest engine', () => {
  it('reports a hanging engine as late, not failed, and leaves its circuit alone', async () => {
    emu.fault('grok', { hang: true })
    // Far more failures than the circuit's threshold (3) would open it, were a cut-off call counted as one.
    const l = layer({ providerTimeoutMs: 60_000, circuit: { failureThreshold: 2 } })
    for (const query of ['bun vs deno', 'deno deploy', 'bun install']) {
      const res = await l.search({ query, mode: 'deep', intent: 'none', deadlineMs: 60_000 })
      expect(res.providers.grok).toMatchObject({ status: 'late', calls: 1, late_calls: 1, results: 0 })
      expect(res.providers.grok!.error).toBeUndefined()
      expect(res.providers.grok!.ms).toBeGreaterThan(0)
      for (const name of ['brave', 'exa', 'tavily']) expect(res.providers[name]!.status).toBe('ok')
      expect(res.partial).toBe(false)
      expect(res.results.length).toBeGreaterThan(0)
      expect(res.results.some((r) => r.sources.includes('grok'))).toBe(false)
    }
    expect(await grokCircuit(l)).toMatchObject({ open: false, consecutiveFailures: 0 })
  }, 20_000)

  it('waits for every engine with wait: "all"', async () => {
    emu.latency('grok', 600)
    const l = layer()
    const settled = await l.search({ query: 'bun vs deno', mode: 'deep', intent: 'none', patienceMs: 0 })
    expect(settled.providers.grok!.status).toBe('late')
    const all = await l.search({ query: 'bun vs deno', mode: 'deep', intent: 'none', wait: 'all' })
    expect(all.providers.grok).toMatchObject({ status: 'ok', calls: 1 })
    expect(all.providers.grok!.late_calls).toBeUndefined()
    expect(all.results.some((r) => r.sources.includes('grok'))).toBe(true)
  })

  it('gives the slower engines the patience asked for', async () => {
    emu.latency('grok', 600)
    const res = await layer().search({ query: 'bun vs deno', mode: 'deep', intent: 'none', patienceMs: 30_000 })
    expect(res.providers.grok).toMatchObject({ status: 'ok', calls: 1 })
  })

  it('waits for the mode’s own engines however slow (fast mode: exa and brave)', async () => {
    emu.latency('exa', 600)
    const res = await layer().search({ query: 'bun vs deno', mode: 'fast', intent: 'none', patienceMs: 0 })
    expect(res.providers.exa).toMatchObject({ status: 'ok', calls: 1 })
    expect(res.providers.brave!.status).toBe('ok')
  })

  it('waits for a stand-in of an awaited engine that failed', async () => {
    emu.fault('exa', { status: 500 })
    emu.latency('tavily', 400)
    const res = await layer().search({ query: 'bun vs deno', mode: 'fast', intent: 'none', patienceMs: 0 })
    expect(res.providers.exa!.status).toBe('error')
    // Tavily, not the usually slow Grok, takes Exa's place (see `typicalLatencyMs`).
    expect(res.providers.tavily).toMatchObject({ status: 'ok', fallback_for: 'exa' })
  })

  it.each([
    [{ patienceMs: -1 }, /patienceMs/],
    [{ patienceMs: 1.5 }, /patienceMs/],
    [{ patienceMs: 120_001 }, /patienceMs/],
    [{ wait: 'some' }, /wait/],
  ])('refuses %j, naming the field', async (fields, field) => {
    const search = layer().search({ query: 'bun vs deno', ...(fields as object) })
    await expect(search).rejects.toBeInstanceOf(InputError)
    await expect(search).rejects.toThrow(field)
  })
})

describe('paced engines take what fits', () => {
  // The emulator's Brave answers with a free plan's headers (1 request a second): learned from the first answer.
  let mark = 0
  const learnFreePlan = async (l: ReturnType<typeof createSearchLayer>) => {
    await l.search({ query: 'warm up', sources: ['brave'], intent: 'none' })
    mark = emu.count('brave')
  }
  // Brave calls since the plan was learned (or since the last `mark`).
  const braveQueries = () => emu.count('brave') - mark
  const queries = ['bun vs deno', 'bun vs deno benchmarks', 'bun vs deno node compatibility']

  it('asks a keyed engine on a slow pace only the queries it can start at once; the others still get them all', async () => {
    const l = layer({ rateLimits: {} })
    await learnFreePlan(l)
    const res = await l.search({ queries, mode: 'deep', intent: 'none' })
    expect(braveQueries()).toBe(1)
    expect(res.providers.brave).toMatchObject({ status: 'ok', calls: 1 })
    for (const name of ['exa', 'tavily', 'grok']) expect(res.providers[name]).toMatchObject({ status: 'ok', calls: 3 })
  })

  it('queues them at the pace when the search waits for all, or when it is the only engine', async () => {
    const l = layer({ rateLimits: {} })
    await learnFreePlan(l)
    await l.search({ queries, mode: 'deep', intent: 'none', wait: 'all' })
    expect(braveQueries()).toBe(3)
    const alone = await l.search({ queries: ['tokio', 'tokio select'], sources: ['brave'], intent: 'none' })
    expect(alone.providers.brave).toMatchObject({ status: 'ok', calls: 2 })
  }, 20_000)
})

describe('late answers are not wasted (lateCalls: "finish")', () => {
  const request = { query: 'bun vs deno', mode: 'deep', intent: 'none', patienceMs: 0 } as const
  const fromGrok = (results: { sources: string[] }[]) => results.filter((r) => r.sources.includes('grok')).length

  it('completes the cached entry with the late engine’s results: the next identical search gets them', async () => {
    emu.latency('grok', 500)
    const l = layer({ cache: createMemoryCache(), lateCalls: 'finish' })
    const first = await l.search(request)
    expect(first.providers.grok!.status).toBe('late')
    await vi.waitFor(
      async () => {
        const next = await l.search(request)
        expect(next.cached).toBe(true)
        expect(next.providers.grok).toMatchObject({ status: 'ok', calls: 1 })
        expect(fromGrok(next.results)).toBeGreaterThan(0)
      },
      { timeout: 10_000, interval: 100 },
    )
    // The settled response the first caller got is left as it was.
    expect(first.providers.grok!.status).toBe('late')
    expect(emu.count('grok')).toBe(1)
  }, 20_000)

  it('cuts late calls off by default, and a search that waits for all takes no settled answer from the cache', async () => {
    emu.latency('grok', 500)
    const l = layer({ cache: createMemoryCache() })
    expect((await l.search(request)).providers.grok!.status).toBe('late')
    expect((await l.search(request)).cached).toBe(true)
    const all = await l.search({ ...request, wait: 'all' })
    expect(all.cached).toBe(false)
    expect(all.providers.grok!.status).toBe('ok')
    // Its full answer is the cached one now.
    expect((await l.search(request)).providers.grok!.status).toBe('ok')
  })

  it('streams the late engine after done, then the full response as update', async () => {
    emu.latency('grok', 500)
    const events: SearchStreamEvent[] = []
    for await (const event of layer({ lateCalls: 'finish' }).stream(request)) events.push(event)
    const types = events.map((e) => e.type)
    const done = types.indexOf('done')
    expect(types.indexOf('late')).toBeLessThan(done)
    expect(types.at(-1)).toBe('update')
    const update = events.at(-1) as Extract<SearchStreamEvent, { type: 'update' }>
    expect(update.response.providers.grok!.status).toBe('ok')
    expect(fromGrok(update.response.results)).toBeGreaterThan(0)
    expect(events.slice(done + 1).some((e) => e.type === 'results' && e.answered.includes('grok'))).toBe(true)
  })
})
