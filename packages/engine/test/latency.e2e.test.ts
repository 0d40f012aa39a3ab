import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { apiKeyId } from '@search-layer/core/config'
import { useEmulator } from '@search-layer/testkit/vitest'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  type KeyState,
  type KeyStateStore,
  type SearchLayerOptions,
  type SearchProgress,
  createMemoryKeyStateStore,
  createOneShotKeyStateStore,
  createSearchLayer,
} from '../src/index.js'

// Learned latency: what the calls of earlier searches took decides who starts first and who stands in. The
// learned state is seeded into the key-state store (as an earlier run would have left it), so nothing here depends
// on how long a call takes; the emulator's latencies only keep the slow engine slow.

const emu = useEmulator()
let home: string
beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'sl-latency-'))
})

const VARIABLE = { brave: 'BRAVE_API_KEY', exa: 'EXA_API_KEY', tavily: 'TAVILY_API_KEY', grok: 'XAI_API_KEY' } as const
type Engine = keyof typeof VARIABLE
const keyOf = (engine: Engine) => apiKeyId(emu.env[VARIABLE[engine]]!)

const timed = (ms: number, n = 10): KeyState => ({
  latency: { updatedAt: Date.now(), samples: Array.from({ length: n }, () => ({ ms })) },
})

async function seeded(p50s: Partial<Record<Engine, number | KeyState>>): Promise<KeyStateStore> {
  const store = createMemoryKeyStateStore()
  for (const [engine, value] of Object.entries(p50s))
    await store.set(engine, keyOf(engine as Engine), typeof value === 'number' ? timed(value) : value!)
  return store
}

const layer = (overrides: SearchLayerOptions = {}, env: Record<string, string | undefined> = {}) =>
  createSearchLayer({
    env: { ...emu.env, HOME: home, ...env },
    cache: false,
    rateLimits: false,
    providerRetries: 0,
    ...overrides,
  })

const latencyOf = async (l: ReturnType<typeof createSearchLayer>, engine: Engine) =>
  (await l.status()).find((s) => s.name === engine)!.keys[0]!.latency

describe('learned latency', () => {
  it('times each successful call per key; a failure is no sample', async () => {
    emu.latency('tavily', 120)
    emu.fault('exa', { status: 500 })
    const l = layer()
    await l.search({ query: 'bun vs deno', mode: 'deep', intent: 'none', wait: 'all' })
    const tavily = await latencyOf(l, 'tavily')
    expect(tavily).toMatchObject({ samples: 1, late: 0 })
    // At least the emulator's delay: a lower bound the server guarantees, not a timing assertion.
    expect(tavily!.p50.ms).toBeGreaterThanOrEqual(120)
    expect(tavily!.p50.atLeast).toBeUndefined()
    expect(await latencyOf(l, 'exa')).toBeUndefined()
  })

  it('counts a call cut off when the search settled as "at least", never as an answer', async () => {
    emu.fault('grok', { hang: true })
    const l = layer({ providerTimeoutMs: 60_000 })
    const res = await l.search({ query: 'bun vs deno', mode: 'deep', intent: 'none', patienceMs: 0 })
    expect(res.providers.grok!.status).toBe('late')
    // The pool hears of the cut-off as its call unwinds.
    await expect.poll(() => latencyOf(l, 'grok')).toMatchObject({ samples: 1, late: 1, p50: { atLeast: true } })
  }, 20_000)

  it('starts the slowest engines first', async () => {
    const keyState = await seeded({ brave: 450, exa: 1100, tavily: 1600, grok: 7000 })
    const started: string[] = []
    const onProgress = (e: SearchProgress) => void (e.type === 'started' && started.push(e.provider))
    await layer({ keyState }).search({ query: 'bun vs deno', mode: 'deep', intent: 'none' }, { onProgress })
    expect(started).toEqual(['grok', 'tavily', 'exa', 'brave'])
  })

  it("starts them by the definitions' typical latencies until they are timed, then by what was learned", async () => {
    const startOrder = async (keyState: KeyStateStore) => {
      const started: string[] = []
      const onProgress = (e: SearchProgress) => void (e.type === 'started' && started.push(e.provider))
      await layer({ keyState }).search({ query: 'bun vs deno', mode: 'deep', intent: 'none' }, { onProgress })
      return started
    }
    // Nothing learned: Grok 8 s, Tavily 1.5 s, Exa 1.1 s, Brave 450 ms.
    expect(await startOrder(createMemoryKeyStateStore())).toEqual(['grok', 'tavily', 'exa', 'brave'])
    // Brave timed at 9 s overrides its typical 450 ms; two calls timed are too few for Exa's 20 s to count.
    const learned = await seeded({ brave: 9000, exa: timed(20_000, 2) })
    expect(await startOrder(learned)).toEqual(['brave', 'grok', 'tavily', 'exa'])
  })

  it('lets a quicker engine of the same slot stand in for a typically far slower one (fast mode)', async () => {
    // Fast mode's question-answering slot: exa, then grok and tavily stand in.
    const keyState = await seeded({ exa: 7000, grok: 500, tavily: 1600, brave: 450 })
    const res = await layer({ keyState }).search({ query: 'bun vs deno', mode: 'fast', intent: 'none' })
    expect(res.providers.exa).toMatchObject({ status: 'skipped', calls: 0 })
    expect(res.providers.exa!.reason).toMatch(/^passed over: typically slow \(p50 7\.0 s over its last 10 calls\)/)
    expect(res.providers.exa!.reason).toContain('grok (p50 500 ms) stands in')
    expect(res.providers.grok).toMatchObject({ status: 'ok', calls: 1, fallback_for: 'exa' })
    expect(res.providers.tavily!.status).toBe('skipped')
    expect(res.providers.brave!.status).toBe('ok')
  })

  it('picks the stand-in over the slow engine that would stand in by order, and only one with capacity', async () => {
    // No Exa key: grok would stand in by order, but it is typically slow; tavily is quick and free to call.
    const noExa = { EXA_API_KEY: undefined }
    const keyState = await seeded({ grok: 7000, tavily: 1600, brave: 450 })
    const res = await layer({ keyState }, noExa).search({ query: 'bun vs deno', mode: 'fast', intent: 'none' })
    expect(res.providers.exa).toMatchObject({ status: 'skipped', reason: expect.stringMatching(/^not configured/) })
    expect(res.providers.grok).toMatchObject({ status: 'skipped', fallback_for: 'exa' })
    expect(res.providers.grok!.reason).toContain('tavily (p50 1.6 s) stands in')
    expect(res.providers.tavily).toMatchObject({ status: 'ok', fallback_for: 'exa' })

    // Tavily resting: no quicker engine can take the slot, so grok does, slow as it is.
    const resting = await seeded({
      grok: 7000,
      tavily: { ...timed(1600), restUntil: Date.now() + 60_000, lastError: { kind: 'upstream', message: '500' } },
    })
    const slow = await layer({ keyState: resting }, noExa).search({
      query: 'bun vs deno',
      mode: 'fast',
      intent: 'none',
    })
    expect(slow.providers.grok).toMatchObject({ status: 'ok', fallback_for: 'exa' })
  })

  it("goes by the definitions' typical latencies in a fresh process, until three calls are timed", async () => {
    // Nothing learned, no Exa key: Grok (usually 8 s) is passed over for Tavily (usually 1.5 s) on the first run.
    const noExa = { EXA_API_KEY: undefined }
    const cold = await layer({}, noExa).search({ query: 'bun vs deno', mode: 'fast', intent: 'none' })
    expect(cold.providers.grok).toMatchObject({ status: 'skipped', fallback_for: 'exa' })
    expect(cold.providers.grok!.reason).toBe(
      'passed over: typically slow (usually 8.0 s, not timed yet); tavily (usually 1.5 s) stands in',
    )
    expect(cold.providers.tavily).toMatchObject({ status: 'ok', fallback_for: 'exa' })

    // Grok timed quick over three calls overrides its typical 8 s: it takes the slot by its order again.
    const quick = await seeded({ grok: 900 })
    const learned = await layer({ keyState: quick }, noExa).search({
      query: 'bun vs deno',
      mode: 'fast',
      intent: 'none',
    })
    expect(learned.providers.grok).toMatchObject({ status: 'ok', fallback_for: 'exa' })
    expect(learned.providers.tavily!.status).toBe('skipped')

    // Two calls timed are too few: the typical latency still decides.
    const few = await seeded({ grok: timed(900, 2) })
    const early = await layer({ keyState: few }, noExa).search({ query: 'bun vs deno', mode: 'fast', intent: 'none' })
    expect(early.providers.tavily).toMatchObject({ status: 'ok', fallback_for: 'exa' })
  })

  it('hands a failed call to the quicker engine of the slot, by what was learned', async () => {
    emu.fault('exa', { status: 500 })
    // Grok timed quick: it takes the failed call over by its order.
    const quick = await seeded({ grok: 900, tavily: 1600 })
    const res = await layer({ keyState: quick }).search({ query: 'bun vs deno', mode: 'fast', intent: 'none' })
    expect(res.providers.grok).toMatchObject({ status: 'ok', fallback_for: 'exa' })
    expect(res.providers.tavily!.status).toBe('skipped')
    // Grok timed slow: Tavily takes it over, and Grok's entry says why.
    const slow = await seeded({ grok: 7000, tavily: 1600 })
    const res2 = await layer({ keyState: slow }).search({ query: 'bun vs deno', mode: 'fast', intent: 'none' })
    expect(res2.providers.tavily).toMatchObject({ status: 'ok', fallback_for: 'exa' })
    expect(res2.providers.grok!.reason).toBe(
      'passed over: typically slow (p50 7.0 s over its last 10 calls); tavily (p50 1.6 s) stands in',
    )
  })

  it('reads a slow engine cut off every time (only lower bounds) as slow, not as fast', async () => {
    const late = (ms: number): KeyState => ({
      latency: { updatedAt: Date.now(), samples: Array.from({ length: 8 }, () => ({ ms, late: true as const })) },
    })
    const keyState = await seeded({ exa: late(3000), grok: 400, tavily: 1600 })
    const res = await layer({ keyState }).search({ query: 'bun vs deno', mode: 'fast', intent: 'none' })
    expect(res.providers.exa!.reason).toMatch(/p50 ≥ 3\.0 s/)
    expect(res.providers.grok).toMatchObject({ status: 'ok', fallback_for: 'exa' })
  })

  it('keeps the order when nothing is far slower, when too little is known, and with named sources', async () => {
    const close = await seeded({ exa: 1100, grok: 700, tavily: 1600 })
    expect((await layer({ keyState: close }).search({ query: 'q one', mode: 'fast' })).providers.exa!.status).toBe('ok')
    const few = await seeded({ exa: timed(7000, 2), grok: 500, tavily: 1600 })
    expect((await layer({ keyState: few }).search({ query: 'q two', mode: 'fast' })).providers.exa!.status).toBe('ok')
    const named = await seeded({ exa: 7000, grok: 500 })
    const res = await layer({ keyState: named }).search({ query: 'q three', mode: 'fast', sources: ['exa', 'brave'] })
    expect(res.providers.exa!.status).toBe('ok')
  })

  it('keeps what it learned in the key-state file for the next process', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'sl-latency-file-')), 'key-state.json')
    emu.latency('brave', 50)
    const first = createOneShotKeyStateStore({ file })
    await layer({ keyState: first }).search({ query: 'bun vs deno', sources: ['brave'], intent: 'none' })
    first.save()
    const stored = JSON.parse(readFileSync(file, 'utf8'))[`brave:${keyOf('brave')}`]
    expect(stored.latency.samples).toHaveLength(1)

    const next = layer({ keyState: createOneShotKeyStateStore({ file }) })
    expect(await latencyOf(next, 'brave')).toMatchObject({ samples: 1, p50: { ms: stored.latency.samples[0].ms } })
  })
})
