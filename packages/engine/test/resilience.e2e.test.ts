import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ConfigError } from '@search-layer/core'
import { useEmulator } from '@search-layer/testkit/vitest'
import { describe, expect, it } from 'vitest'
import { type SearchLayerOptions, createSearchLayer } from '../src/index.js'

const emu = useEmulator()

const freshHome = () => mkdtempSync(join(tmpdir(), 'sl-resilience-'))

/**
 * A search layer on a clock the test moves by hand: cooldowns are checked without waiting for them. It starts at
 * the real time because HTTP deadlines are compared with the real clock.
 */
function layerOnClock(overrides: SearchLayerOptions = {}) {
  const clock = { t: Date.now() }
  const layer = createSearchLayer({
    env: { ...emu.env, HOME: freshHome() },
    cache: false,
    rateLimits: false,
    providerRetries: 0,
    now: () => clock.t,
    ...overrides,
  })
  const brave = async () => (await layer.status()).find((s) => s.name === 'brave')!.circuit
  return { layer, clock, brave }
}

const burst = (layer: ReturnType<typeof createSearchLayer>, n: number, tag: string) =>
  Promise.all(
    Array.from({ length: n }, (_, i) =>
      layer.search({ query: `${tag} query ${i}`, sources: ['brave', 'exa'], intent: 'none' }),
    ),
  )

describe('circuit breaker under concurrent load (documented first cooldown 30 s)', () => {
  it('a 500 blip under 50 concurrent searches rests brave for the first cooldown, and one probe brings it back', async () => {
    const { layer, clock, brave } = layerOnClock()
    const openedAt = clock.t
    emu.fault('brave', { status: 500 })
    const during = await burst(layer, 50, 'blip')
    emu.fault('brave', null)
    expect(emu.count('brave')).toBeGreaterThanOrEqual(3)
    for (const res of during) expect(res.providers.exa!.status).toBe('ok')
    // Before: each failure of a call still in flight doubled the cooldown, up to 5 minutes (297 s measured).
    expect(await brave()).toMatchObject({ open: true, until: openedAt + 30_000 })

    clock.t = openedAt + 29_000
    const resting = await layer.search({ query: 'while resting', sources: ['brave'], intent: 'none' })
    expect(resting.providers.brave).toMatchObject({ status: 'skipped', reason: expect.stringMatching(/cooling down/) })
    expect(resting.partial).toBe(true)
    expect(resting.warnings).toContainEqual(
      `brave is resting after repeated failures (last: upstream); it will be retried in 1 s, at ${new Date(openedAt + 30_000).toISOString()}`,
    )

    clock.t = openedAt + 30_000
    const before = emu.count('brave')
    const after = await burst(layer, 20, 'recovered')
    for (const res of after) expect(res.providers.brave).toMatchObject({ status: 'ok', calls: 1 })
    expect(emu.count('brave') - before).toBe(20)
    expect(await brave()).toMatchObject({ open: false, phase: 'closed', consecutiveFailures: 0 })
    expect(after.every((res) => !res.partial && res.warnings.length === 0)).toBe(true)
  })

  it('half-open: one probe is in flight at a time; the calls behind it start once it has answered', async () => {
    const { layer, clock, brave } = layerOnClock({ circuit: { failureThreshold: 1 } })
    emu.fault('brave', { status: 500, times: 1 })
    await layer.search({ query: 'open it', sources: ['brave'], intent: 'none' })
    expect((await brave()).open).toBe(true)
    clock.t += 30_000
    emu.latency('brave', 150)
    const first = emu.requests.length
    const results = await burst(layer, 8, 'probe')
    const calls = emu.requests.slice(first).filter((r) => r.service === 'brave')
    expect(calls).toHaveLength(8)
    const [probe, ...rest] = [...calls].sort((a, b) => a.startedAt - b.startedAt)
    for (const call of rest) expect(call.startedAt).toBeGreaterThanOrEqual(probe!.endedAt!)
    for (const res of results) expect(res.providers.brave!.status).toBe('ok')
  })

  it('a failed probe doubles the rest and the calls waiting behind it are not made', async () => {
    const { layer, clock, brave } = layerOnClock({ circuit: { failureThreshold: 1 } })
    emu.fault('brave', { status: 500 })
    await layer.search({ query: 'open it', sources: ['brave'], intent: 'none' })
    clock.t += 30_000
    emu.latency('brave', 100)
    const before = emu.count('brave')
    const results = await burst(layer, 5, 'still down')
    expect(emu.count('brave') - before).toBe(1)
    for (const res of results) expect(res.providers.brave!.status).toBe('error')
    expect(results.filter((r) => /resting/.test(r.providers.brave!.error?.message ?? ''))).toHaveLength(4)
    expect(await brave()).toMatchObject({ open: true, until: clock.t + 60_000 })
  })
})

describe('configuration problems are named and the rest keeps working', () => {
  const withConfig = (text: string, env: Record<string, string> = {}) => {
    const home = freshHome()
    const file = join(home, '.config', 'search-layer', 'config.json')
    mkdirSync(join(file, '..'), { recursive: true })
    writeFileSync(file, text)
    chmodSync(file, 0o600)
    return {
      file,
      layer: createSearchLayer({ env: { ...emu.env, ...env, HOME: home }, cache: false, rateLimits: false }),
    }
  }

  it.each([
    ['{"brave": {"apiKey": "k"},\n "exa": }', /is not valid JSON at line 2, column 9/],
    ['{"brave": 12}', /field `brave` is invalid/],
  ])('a broken config file %j is reported; keys from the environment still search', async (text, message) => {
    const { file, layer } = withConfig(text)
    const res = await layer.search({ query: 'rust async', sources: ['brave', 'exa'], intent: 'none' })
    expect(res.providers.brave!.status).toBe('ok')
    expect(res.providers.exa!.status).toBe('ok')
    expect(res.warnings.join('\n')).toContain(file)
    expect(res.warnings.join('\n')).toMatch(message)
  })

  it('with no key anywhere else, the broken file is the error, not "no provider is configured"', async () => {
    const home = freshHome()
    const file = join(home, 'config.json')
    writeFileSync(file, '{"brave": "k",, }')
    const layer = createSearchLayer({ env: { HOME: home, SEARCH_LAYER_CONFIG: file }, cache: false })
    const error = await layer.search({ query: 'x' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ConfigError)
    expect(error).toMatchObject({ file })
    expect((error as Error).message).toContain(`${file} is not valid JSON at line 1, column 15`)
    expect((error as Error).message).not.toContain('no search provider is configured')
  })

  it.each(['brave', 'exa', 'tavily', 'grok'] as const)(
    'a malformed base URL for %s marks it misconfigured, naming the variable; the others search',
    async (name) => {
      const variable = `${name === 'grok' ? 'GROK' : name.toUpperCase()}_API_URL`
      const { layer } = withConfig('{}', { [variable]: 'not a url' })
      const res = await layer.search({ query: 'rust async', mode: 'deep', intent: 'none' })
      expect(res.providers[name]).toMatchObject({
        status: 'skipped',
        reason: expect.stringMatching(new RegExp(`^misconfigured: .*env:${variable} \\("not a url"\\) is not a URL`)),
      })
      expect(res.providers[name]!.reason).not.toMatch(/set [A-Z]+_API_KEY/)
      for (const other of ['brave', 'exa', 'tavily', 'grok'] as const)
        if (other !== name) expect(res.providers[other]!.status).toBe('ok')
      expect(res.warnings.join('\n')).toContain(variable)
    },
  )
})
