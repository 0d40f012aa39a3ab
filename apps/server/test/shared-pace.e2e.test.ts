import { type Emulator, userKeyVariables } from '@search-layer/testkit'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { useRedisPair } from './_redis.js'

// Two server instances on one Redis keep one DuckDuckGo pace: the slots one takes hold the other.
const instances = useRedisPair()
let emu: Emulator
let redis: Redis
beforeAll(() => {
  emu = instances.shared.emu
  redis = new Redis(instances.shared.redis.url, { lazyConnect: false, maxRetriesPerRequest: 1 })
})
afterAll(() => redis?.quit())

let prefixes = 0
// What a new user has: no key, no SearXNG; only DuckDuckGo's base URL points at the emulator.
const zeroKeyPair = (prefix: string) =>
  instances.pair({
    redisPrefix: prefix,
    // The engine's per-source pacing on (the test helper turns it off): its keyless schedule is the one shared.
    providerRateLimits: undefined,
    envOverride: {
      ...Object.fromEntries(userKeyVariables(emu.env).map((k) => [k, undefined])),
      SEARCH_LAYER_KEYLESS: 'on',
    },
  })
const ddgSearch = (query: string, deadlineMs = 8000) => ({
  query,
  sources: ['duckduckgo'],
  intent: 'none',
  cache: false,
  deadlineMs,
})
const paceKey = (prefix: string) => `${prefix}pace:duckduckgo:${emu.urls.duckduckgo}`

// A slot's key lives until a second after the slot, so a search that took longer than that on a busy host (one
// did, in CI) finds it gone when it reads it afterwards. The keys are read while the search runs instead, and the
// last value seen is kept.
function watchKeys(keys: string[]) {
  const seen = new Map<string, number>()
  let watching = true
  const done = (async () => {
    while (watching) {
      const values = await redis.mget(...keys)
      for (const [i, value] of values.entries()) if (value !== null) seen.set(keys[i]!, Number(value))
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
  })()
  return async () => {
    watching = false
    await done
    return keys.map((key) => seen.get(key) ?? 0)
  }
}

describe('keyless pace shared through Redis', () => {
  it('keeps one schedule: the slot one instance took is in Redis, and the other waits for the next', async () => {
    const prefix = `shared-pace-${++prefixes}:`
    const [a, b] = await zeroKeyPair(prefix)
    const sentAt = Date.now()
    const stopWatching = watchKeys([paceKey(prefix), `${prefix}pace:keyless:duckduckgo`])
    const first = await (await a.call('/v1/search', { json: ddgSearch('what is a monad') })).json()
    expect(first.providers.duckduckgo).toMatchObject({ status: 'ok', calls: 1 })
    const [next = 0, keyless = 0] = await stopWatching()
    expect(next).toBeGreaterThanOrEqual(sentAt + 1000)
    // The engine's own schedule for every keyless source is there too (Wikipedia, Hacker News… share it the same way).
    expect(keyless).toBeGreaterThanOrEqual(sentAt + 1000)

    const second = await (await b.call('/v1/search', { json: ddgSearch('what is a functor') })).json()
    expect(second.providers.duckduckgo).toMatchObject({ status: 'ok', calls: 1 })
    const [one, two] = emu.requests.filter((r) => r.service === 'duckduckgo').map((r) => r.startedAt)
    // The exact rule: the other instance sent nothing before the slot the first one left in Redis. The gap between
    // arrivals is a second less however long the first call took to arrive (12 ms seen on a loaded machine).
    // (5 ms: timers run on the monotonic clock, whose millisecond may round apart from Date.now()'s.)
    expect(two!).toBeGreaterThanOrEqual(next - 5)
    expect(two! - one!).toBeGreaterThanOrEqual(900)
  })

  it('skips DuckDuckGo without a request when the shared schedule passes the deadline', async () => {
    const prefix = `shared-pace-${++prefixes}:`
    const [, b] = await zeroKeyPair(prefix)
    // Slots taken by instances elsewhere (another process, another machine) up to 5 s from now.
    await redis.set(paceKey(prefix), String(Date.now() + 5000), 'PX', 10_000)
    const res = await (await b.call('/v1/search', { json: ddgSearch('what is a monad', 1500) })).json()
    expect(res.providers.duckduckgo).toMatchObject({ status: 'error', error: { kind: 'timeout' } })
    expect(res.providers.duckduckgo.error.message).toMatch(/next request slot comes after the deadline/)
    expect(emu.requests.filter((r) => r.service === 'duckduckgo')).toHaveLength(0)
  })
})
