import { apiKeyId } from '@search-layer/core/config'
import type { Emulator } from '@search-layer/testkit'
import { Redis } from 'ioredis'
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

describe('learned latency through Redis', () => {
  it('calls one instance timed show in the other’s /readyz, per key and per provider', async () => {
    const prefix = `latency-${++prefixes}:`
    const [a, b] = await instances.pair({
      redisPrefix: prefix,
      envOverride: { BRAVE_API_KEY: KEY_ONE },
    })
    emu.latency('brave', 40)
    for (const query of ['rust async', 'tokio runtime']) await a.call('/v1/search', { json: braveSearch(query) })
    const { brave } = await braveReady(b)
    expect(brave.keys[0].latency).toMatchObject({ samples: 2, late: 0, p50: { ms: expect.any(Number) } })
    // The emulator's delay is a floor the server guarantees, not a timing assertion.
    expect(brave.keys[0].latency.p50.ms).toBeGreaterThanOrEqual(40)
    expect(brave.latency).toEqual(brave.keys[0].latency)
    const redis = new Redis(instances.shared.redis.url)
    try {
      const key = `${prefix}keys:brave:${apiKeyId(KEY_ONE)}`
      expect(JSON.parse((await redis.get(key))!).latency.samples).toHaveLength(2)
      // Latency alone is kept as long as learned limits (not dropped with a rest).
      expect(await redis.pttl(key)).toBeGreaterThan(24 * 60 * 60_000)
    } finally {
      redis.disconnect()
    }
  })

  it('an entry with bad samples loses them alone, and the server says so in its log', async () => {
    const prefix = `latency-bad-${++prefixes}:`
    const [a] = await instances.pair({
      redisPrefix: prefix,
      envOverride: { BRAVE_API_KEY: KEY_ONE },
      providerRateLimits: undefined,
    })
    const redis = new Redis(instances.shared.redis.url)
    try {
      const samples = Array.from({ length: 5000 }, () => ({ ms: 1 }))
      const stored = { limits: { learnedAt: Date.now(), perSecond: 7 }, latency: { updatedAt: Date.now(), samples } }
      await redis.set(`${prefix}keys:brave:${apiKeyId(KEY_ONE)}`, JSON.stringify(stored))
    } finally {
      redis.disconnect()
    }
    const { brave } = await braveReady(a)
    expect(brave.keys[0]).toMatchObject({ pace: { perSecond: 7, learned: true } })
    expect(brave.keys[0].latency).toBeUndefined()
    expect(a.logs.text()).toMatch(/redis entry .*keys:brave:[0-9a-f]{12}: latency samples ignored/)
    const search = await a.call('/v1/search', { json: braveSearch('rust async') })
    expect(search.status).toBe(200)
  })
})

// Issue 36: a wait a vendor asks for is bounded before it reaches a rest, a Redis TTL or a date.
describe('vendor waits through Redis', () => {
  const HOUR = 60 * 60_000
  const RATE_LIMITED_BODY = JSON.stringify({
    type: 'ErrorResponse',
    error: { code: 'RATE_LIMITED', status: 429, detail: 'Request rate limit exceeded for plan.' },
  })
  const rateLimited = (retryAfter: string, key?: string) => ({
    ...(key && { key }),
    reply: { status: 429, body: RATE_LIMITED_BODY, headers: { 'retry-after': retryAfter } },
  })

  it.each([
    ['315360000 seconds', '315360000'],
    ['a date in 9999', 'Fri, 31 Dec 9999 23:59:59 GMT'],
    ['two days', String(2 * 86_400)],
  ])(
    'Retry-After of %s: the key rests an hour at most, and Redis keeps it no longer than a rest or its limits',
    async (_name, retryAfter) => {
      const prefix = `waits-${++prefixes}:`
      const [a, b] = await instances.pair({
        redisPrefix: prefix,
        envOverride: { BRAVE_API_KEY: `${KEY_ONE},${KEY_TWO}` },
      })
      emu.fault('brave', rateLimited(retryAfter, KEY_ONE))
      const first = await (await a.call('/v1/search', { json: braveSearch('rust async') })).json()
      expect(first.providers.brave).toMatchObject({ status: 'ok' })
      const { brave } = await braveReady(b)
      const restingUntil = brave.keys[0].restingUntil as string | undefined
      if (restingUntil) expect(Date.parse(restingUntil) - Date.now()).toBeLessThanOrEqual(HOUR)
      const redis = new Redis(instances.shared.redis.url)
      try {
        const key = `${prefix}keys:brave:${apiKeyId(KEY_ONE)}`
        const stored = JSON.parse((await redis.get(key)) ?? '{}')
        if (stored.restUntil !== undefined) expect(stored.restUntil - Date.now()).toBeLessThanOrEqual(HOUR)
        const ttl = await redis.pttl(key)
        expect(ttl).toBeGreaterThan(0)
        expect(ttl).toBeLessThanOrEqual(stored.limits ? 40 * 24 * HOUR : HOUR)
      } finally {
        redis.disconnect()
      }
    },
  )

  it('a Retry-After of 400 digits leaves /readyz and later searches answering 200', async () => {
    const [a, b] = await pair(KEY_ONE)
    emu.fault('brave', { ...rateLimited('9'.repeat(400)), times: 1 })
    const first = await a.call('/v1/search', { json: braveSearch('rust async') })
    expect(first.status).toBe(200)
    expect((await first.json()).warnings).toContainEqual(
      expect.stringMatching(/^brave sent a wait that is not a number/),
    )
    for (const server of [a, b]) {
      expect((await server.call('/readyz')).status).toBe(200)
      const next = await server.call('/v1/search', { json: braveSearch(`tokio runtime ${server === a}`) })
      expect(next.status).toBe(200)
    }
  })
})
