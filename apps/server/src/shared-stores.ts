import { createHash } from 'node:crypto'
import {
  type CacheStore,
  type KeyStateStore,
  type UsageStore,
  createMemoryCache,
  createMemoryKeyStateStore,
  createMemoryUsageStore,
  parseKeyState,
} from '@search-layer/engine'
import { type PaceStore, processPaceStore } from '@search-layer/core/http'
import type { GuardedRedis } from './guarded-redis.js'
import { keyStateTtlMs } from './key-state-ttl.js'

// What server instances share through Redis (each with its in-process fallback): the engine's cache, monthly usage,
// key state and paces, and the claims that make a cache-miss search run once across instances.

const digest = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 32)

/** A `CacheStore` that can also say cheaply whether a key is present. */
export interface SharedCache extends CacheStore {
  has(key: string): Promise<boolean>
}

/** The engine's cache in Redis (JSON, PX ttl), mirrored in a memory LRU that serves while Redis is down. */
export function createSharedCache(
  state: GuardedRedis,
  { maxEntries = 500 }: { maxEntries?: number } = {},
): SharedCache {
  const memory = createMemoryCache({ maxEntries })
  const keyOf = (key: string) => state.key('cache', digest(key))
  return {
    async has(key) {
      return state.guard(
        'cache exists',
        async (redis) => (await redis.exists(keyOf(key))) === 1,
        async () => (await memory.get(key)) !== undefined,
      )
    },
    async get(key) {
      return state.guard(
        'cache get',
        async (redis) => {
          const raw = await redis.get(keyOf(key))
          return raw === null ? undefined : (JSON.parse(raw) as unknown)
        },
        () => memory.get(key),
      )
    },
    async set(key, value, ttlMs) {
      await memory.set(key, value, ttlMs)
      await state.guard(
        'cache set',
        async (redis) => {
          await redis.set(keyOf(key), JSON.stringify(value), 'PX', Math.max(1, Math.round(ttlMs)))
        },
        () => undefined,
      )
    },
    async delete(key) {
      await memory.delete(key)
      await state.guard(
        'cache delete',
        async (redis) => {
          await redis.del(keyOf(key))
        },
        () => undefined,
      )
    },
  }
}

/** Monthly provider usage in a Redis hash per month; counted in memory while Redis is down. */
export function createSharedUsageStore(state: GuardedRedis): UsageStore {
  const memory = createMemoryUsageStore()
  return {
    increment(provider, month, by) {
      return state.guard(
        'usage increment',
        (redis) => redis.hincrby(state.key('usage', month), provider, by),
        () => memory.increment(provider, month, by),
      )
    },
    get(provider, month) {
      return state.guard(
        'usage get',
        async (redis) => Number((await redis.hget(state.key('usage', month), provider)) ?? 0),
        () => memory.get(provider, month),
      )
    },
  }
}

/**
 * Each provider key's learned limits, rest and latency in Redis (JSON under `keys:<provider>:<key hash>`), so a
 * circuit one instance opens for a key is seen by every other before its next call. Kept in memory while Redis is
 * down. An entry that cannot be trusted (another version's, edited by hand) is ignored and told to `log`, once each.
 */
export function createSharedKeyStateStore(state: GuardedRedis, log: (message: string) => void): KeyStateStore {
  const memory = createMemoryKeyStateStore()
  const told = new Set<string>()
  const tell = (message: string) => {
    if (told.has(message) || told.size > 100) return
    told.add(message)
    log(message)
  }
  const keyOf = (provider: string, keyId: string) => state.key('keys', provider, keyId)
  return {
    get(provider, keyId) {
      return state.guard(
        'key state get',
        async (redis) => {
          const raw = await redis.get(keyOf(provider, keyId))
          if (raw === null) return undefined
          const where = `redis entry ${keyOf(provider, keyId)}`
          try {
            return parseKeyState(JSON.parse(raw), tell, where)
          } catch (error) {
            tell(`${where} ignored: ${(error as Error).message}`)
            return undefined
          }
        },
        () => memory.get(provider, keyId),
      )
    },
    async set(provider, keyId, value) {
      await memory.set(provider, keyId, value)
      const ttlMs = keyStateTtlMs(value, Date.now())
      await state.guard(
        'key state set',
        async (redis) => {
          await redis.set(keyOf(provider, keyId), JSON.stringify(value), 'PX', ttlMs)
        },
        () => undefined,
      )
    },
  }
}

// core's `nextPaceSlot` (the cell rate algorithm on one stored arrival time), done atomically: returns the slot's
// time, or -1 without storing when it would be at or after notAfter (0 = none). The entry expires once its
// arrival time is in the past.
const PACE_SCRIPT = `
local now = tonumber(ARGV[1])
local interval = tonumber(ARGV[2])
local burst = tonumber(ARGV[3])
local notAfter = tonumber(ARGV[4])
local arrival = tonumber(redis.call('GET', KEYS[1]) or '0')
if arrival < now then arrival = now end
local at = arrival - (burst - 1) * interval
if at < now then at = now end
if notAfter > 0 and at >= notAfter then return -1 end
redis.call('SET', KEYS[1], tostring(arrival + interval), 'PX', math.floor(arrival + interval - now) + 1000)
return at
`

/**
 * Request slots of self-paced keyless providers (DuckDuckGo) in Redis under `pace:<service>`, so every instance
 * keeps one schedule: two instances make one polite client, not two. Each instance's own schedule while Redis is
 * down (the process's, as with no Redis at all). Times are the instances' clocks (epoch ms); a skew between them shortens or stretches one gap by as much.
 */
export function createSharedPaceStore(state: GuardedRedis): PaceStore {
  return {
    reserve(key, request) {
      const { now, intervalMs, burst = 1, notAfter = 0 } = request
      return state.guard(
        'pace reserve',
        async (redis) => {
          const args = [now, intervalMs, Math.max(1, Math.floor(burst)), notAfter].map((n) => String(Math.round(n)))
          const at = Number(await redis.eval(PACE_SCRIPT, 1, state.key('pace', key), ...args))
          return at < 0 ? undefined : at
        },
        () => processPaceStore.reserve(key, request),
      )
    },
  }
}

/**
 * Cross-instance single-flight: the first instance to claim a search runs it; the others wait (bounded)
 * for the claim to go away and then read the shared cache. Without Redis every claim succeeds and the
 * engine's in-process single-flight does the job.
 */
export interface SearchClaims {
  claim(key: string, ttlMs: number): Promise<{ owner: boolean; release(): Promise<void> }>
  /** Resolves when nobody holds the claim any more, or after `maxWaitMs`. */
  waitFor(key: string, maxWaitMs: number, signal?: AbortSignal): Promise<void>
}

/** Claims as `SET NX PX` keys; a crashed owner's claim expires with its ttl. */
export function createSearchClaims(state: GuardedRedis, instanceId: string): SearchClaims {
  const keyOf = (key: string) => state.key('inflight', digest(key))
  return {
    async claim(key, ttlMs) {
      const k = keyOf(key)
      const owner = await state.guard(
        'claim',
        async (redis) => (await redis.set(k, instanceId, 'PX', ttlMs, 'NX')) === 'OK',
        () => true,
      )
      return {
        owner,
        release: async () => {
          if (!owner) return
          await state.guard(
            'release',
            async (redis) => {
              // Only delete our own claim: after a ttl expiry someone else may hold it.
              await redis.eval(
                "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0",
                1,
                k,
                instanceId,
              )
            },
            () => undefined,
          )
        },
      }
    },
    async waitFor(key, maxWaitMs, signal) {
      const k = keyOf(key)
      const until = Date.now() + maxWaitMs
      let delay = 10
      while (Date.now() < until && !signal?.aborted) {
        const held = await state.guard(
          'claim check',
          async (redis) => (await redis.exists(k)) === 1,
          () => false,
        )
        if (!held) return
        await new Promise((resolve) => setTimeout(resolve, delay))
        delay = Math.min(delay * 2, 50)
      }
    },
  }
}
