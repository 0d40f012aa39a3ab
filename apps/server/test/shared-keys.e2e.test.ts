import type { Emulator } from '@search-layer/testkit'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Booted, Json } from './_helpers.js'
import { useRedisPair } from './_redis.js'

// Two server instances on one Redis share each provider key's rest and learned limits.
const KEY_ONE = 'BSAserver-pool-first-000001'
const KEY_TWO = 'BSAserver-pool-second-00002'
const instances = useRedisPair({ keys: { brave: [KEY_ONE, KEY_TWO] } })
let emu: Emulator
beforeAll(() => {
  emu = instances.shared.emu
})
let prefixes = 0
const pair = (braveKeys: string, extra: Parameters<typeof instances.pair>[0] = {}) =>
  instances.pair({
    ...extra,
    redisTimeoutMs: 500,
    redisPrefix: `shared-keys-${++prefixes}:`,
    envOverride: { BRAVE_API_KEY: braveKeys },
  })
const braveSearch = (query: string) => ({ query, sources: ['brave'], intent: 'none', cache: false })
const keysSent = () => emu.requests.filter((r) => r.service === 'brave').map((r) => r.headers['x-subscription-token'])
const braveReady = async (server: Booted) => {
  const body = await (await server.call('/readyz')).json()
  return { body, brave: (body.providers as Json[]).find((p) => p.name === 'brave')! }
}

describe('provider keys shared through Redis', () => {
  it('a key one instance rests is skipped by the other, and /readyz names it by label only', async () => {
    const [a, b] = await pair(`${KEY_ONE},${KEY_TWO}`)
    emu.fault('brave', { status: 429, key: KEY_ONE, retryAfterSec: 60 })
    const first = await (await a.call('/v1/search', { json: braveSearch('rust async') })).json()
    expect(first.providers.brave).toMatchObject({ status: 'ok' })
    expect(keysSent()).toEqual([KEY_ONE, KEY_TWO])

    const { body, brave } = await braveReady(b)
    expect(brave.resting).toBe(false)
    expect(brave.keys).toMatchObject([
      { label: expect.stringMatching(/^key #1 \(…[0-9a-f]{4}\)$/), resting: true, lastError: { kind: 'rate_limited' } },
      { label: expect.stringMatching(/^key #2 \(…[0-9a-f]{4}\)$/), resting: false },
    ])
    const shown = JSON.stringify(body)
    expect(shown).not.toContain(KEY_ONE)
    expect(shown).not.toContain(KEY_TWO)

    emu.reset()
    const second = await (await b.call('/v1/search', { json: braveSearch('tokio runtime') })).json()
    expect(second.providers.brave).toMatchObject({ status: 'ok' })
    expect(keysSent()).toEqual([KEY_TWO])
  })

  it('a provider circuit opened on one instance is open on the other', async () => {
    const [a, b] = await pair(KEY_ONE)
    emu.fault('brave', { status: 429, retryAfterSec: 60 })
    const first = await (await a.call('/v1/search', { json: braveSearch('rust async') })).json()
    expect(first.providers.brave).toMatchObject({ status: 'error', error: { kind: 'rate_limited' } })
    emu.reset()

    const { body, brave } = await braveReady(b)
    expect(brave).toMatchObject({ resting: true, keys: [{ resting: true, lastError: { kind: 'rate_limited' } }] })
    expect(body.status).toBe('degraded')
    const second = await (await b.call('/v1/search', { json: braveSearch('tokio runtime') })).json()
    expect(second.providers.brave).toMatchObject({ status: 'skipped', reason: expect.stringMatching(/^cooling down/) })
    expect(keysSent()).toEqual([])
  })

  it('limits one instance learned from Brave headers pace the other and show in its /readyz', async () => {
    // Provider rate limits on (the test servers turn them off by default), so there is a pace to learn.
    const [a, b] = await pair(KEY_ONE, { providerRateLimits: undefined })
    await a.call('/v1/search', { json: braveSearch('rust async') })
    const { brave } = await braveReady(b)
    // The emulator answers as Brave's Free plan: 1 per second, 15,000 a month (X-RateLimit-Limit: 1, 15000).
    expect(brave.keys[0]).toMatchObject({
      pace: { perSecond: 1, learned: true },
      limits: { quotaLimit: 15_000, quotaRemaining: 14_998 },
    })
  })
})
