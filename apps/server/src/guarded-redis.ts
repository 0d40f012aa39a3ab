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
import { redactSecrets, stripUrlCredentials } from '@search-layer/core'
import { type PaceStore, processPaceStore } from '@search-layer/core/http'
import { Redis } from 'ioredis'
import { keyStateTtlMs } from './key-state-ttl.js'
import type { Logger } from 'pino'

/** Redis as an optional accelerator: every call has a deadline and an in-process fallback. */
export interface SharedState {
  /** True when a Redis URL was configured. */
  readonly configured: boolean
  /** True when Redis is connected right now. */
  up(): boolean
  /** The last Redis problem, for `/readyz`. */
  lastError(): string | undefined
  /** Waits (bounded) for the first connection, so the first requests already share state. */
  ready(timeoutMs: number): Promise<boolean>
  /** Runs `op` on Redis within the deadline; on no Redis, a timeout or an error, runs `fallback` instead. */
  guard<T>(what: string, op: (redis: Redis) => Promise<T>, fallback: () => T | Promise<T>): Promise<T>
  ping(): Promise<{ ok: boolean; ms: number; error?: string }>
  key(...parts: string[]): string
  close(): Promise<void>
}

export interface SharedStateOptions {
  redisUrl?: string
  prefix: string
  /** Longest wait for one Redis call. */
  timeoutMs: number
  logger: Logger
  /** Calls timing out in a row before Redis counts as hung and is skipped. Default 3. */
  hungAfterTimeouts?: number
  /** While hung, how often one PING checks whether Redis answers again. Default 8 × `timeoutMs`, at least 1 s. */
  probeIntervalMs?: number
}

class RedisTimeout extends Error {
  override readonly name = 'RedisTimeout'
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RedisTimeout(`redis ${what} took longer than ${ms} ms`)), ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

/**
 * A Redis URL safe to log: no `user:password@` (a token given as the user name, `redis://TOKEN@host`, is as secret
 * as a password).
 */
export function redactRedisUrl(url: string): string {
  return URL.canParse(url) ? stripUrlCredentials(url) : 'redis://(unparseable url)'
}

/**
 * Connects to Redis when a URL is given; without one every `guard` runs its fallback. A Redis that is connected but
 * does not answer (a paused process, a blocked server) is hung: after `hungAfterTimeouts` calls in a row time out it
 * is skipped like a dead one, so requests stop paying `timeoutMs` per call, until a PING every `probeIntervalMs`
 * comes back.
 */
export function createSharedState({
  redisUrl,
  prefix,
  timeoutMs,
  logger,
  hungAfterTimeouts = 3,
  probeIntervalMs = Math.max(1000, timeoutMs * 8),
}: SharedStateOptions): SharedState {
  let lastError: string | undefined
  let lastWarnAt = 0
  let closed = false
  const warn = (message: string) => {
    // The health route shows this: a client error that quotes the URL must not carry its password there.
    lastError = redactSecrets(message)
    // A down Redis fails every request; one warning per 5 s keeps the log readable.
    if (Date.now() - lastWarnAt > 5000) {
      lastWarnAt = Date.now()
      logger.warn(
        { redis: redisUrl ? redactRedisUrl(redisUrl) : undefined },
        `redis degraded, using in-process state: ${lastError}`,
      )
    }
  }
  const redis = redisUrl
    ? new Redis(redisUrl, {
        enableOfflineQueue: false,
        connectTimeout: Math.max(500, timeoutMs * 4),
        maxRetriesPerRequest: 1,
        lazyConnect: false,
        // Keep trying in the background; requests meanwhile use the fallbacks.
        retryStrategy: (times) => Math.min(100 * 2 ** Math.min(times, 5), 2000),
      })
    : undefined
  redis?.on('error', (error: NodeJS.ErrnoException) => warn(error.code ?? error.message))
  let wasReady = false
  redis?.on('ready', () => {
    if (wasReady || lastError) logger.info('redis connection restored')
    wasReady = true
    lastError = undefined
    // A fresh connection that passed the ready check answers: a hang on the old one is over.
    clearInterval(probeTimer)
    probeTimer = undefined
    hung = undefined
    timeoutsInRow = 0
  })
  redis?.on('close', () => {
    // Logged at once: the 'error' event only follows with the first failed reconnect.
    if (wasReady && !closed) warn('connection lost')
  })

  let timeoutsInRow = 0
  let hung: string | undefined
  let probeTimer: NodeJS.Timeout | undefined
  const probe = async () => {
    if (!redis || closed) return
    try {
      await withTimeout(redis.ping(), timeoutMs, 'probe')
      clearInterval(probeTimer)
      probeTimer = undefined
      hung = undefined
      timeoutsInRow = 0
      lastError = undefined
      logger.info('redis answers again: sharing state through it')
    } catch {
      // Still hung (or down): the next probe tries again.
    }
  }
  const noteTimeout = () => {
    if (++timeoutsInRow < hungAfterTimeouts || hung) return
    hung = `not answering: ${timeoutsInRow} calls in a row took longer than ${timeoutMs} ms; skipped, probed every ${probeIntervalMs} ms`
    lastError = hung
    logger.warn({ redis: redisUrl ? redactRedisUrl(redisUrl) : undefined }, `redis ${hung}; using in-process state`)
    probeTimer = setInterval(() => void probe(), probeIntervalMs)
    probeTimer.unref()
  }

  const up = () => redis?.status === 'ready' && hung === undefined

  return {
    configured: redis !== undefined,
    up,
    lastError: () => (redis && !up() ? (lastError ?? `connection ${redis.status}`) : lastError),
    async ready(waitMs) {
      if (!redis) return false
      if (up()) return true
      return new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => {
          redis.off('ready', onReady)
          resolve(false)
        }, waitMs)
        const onReady = () => {
          clearTimeout(timer)
          resolve(true)
        }
        redis.once('ready', onReady)
      })
    },
    async guard(what, op, fallback) {
      if (!redis || !up()) return fallback()
      try {
        const result = await withTimeout(op(redis), timeoutMs, what)
        timeoutsInRow = 0
        return result
      } catch (error) {
        warn(`${what}: ${(error as Error).message}`)
        if (error instanceof RedisTimeout) noteTimeout()
        return fallback()
      }
    },
    async ping() {
      const started = Date.now()
      if (!redis) return { ok: false, ms: 0, error: 'not configured' }
      try {
        if (hung) throw new Error(hung)
        if (!up()) throw new Error(lastError ?? `connection ${redis.status}`)
        await withTimeout(redis.ping(), timeoutMs, 'ping')
        return { ok: true, ms: Date.now() - started }
      } catch (error) {
        return { ok: false, ms: Date.now() - started, error: (error as Error).message }
      }
    },
    key: (...parts) => prefix + parts.join(':'),
    async close() {
      if (!redis || closed) return
      closed = true
      clearInterval(probeTimer)
      try {
        await withTimeout(redis.quit(), timeoutMs * 4, 'quit')
      } catch {
        // Quitting a dead connection fails; disconnect() stops the reconnect loop either way.
      }
      redis.disconnect()
    },
  }
}

const digest = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 32)

/** A `CacheStore` that can also say cheaply whether a key is present. */
export interface SharedCache extends CacheStore {
  has(key: string): Promise<boolean>
}

/** The engine's cache in Redis (JSON, PX ttl), mirrored in a memory LRU that serves while Redis is down. */
export function createSharedCache(state: SharedState, { maxEntries = 500 }: { maxEntries?: number } = {}): SharedCache {
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
export function createSharedUsageStore(state: SharedState): UsageStore {
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
 * Each provider key's learned limits and rest in Redis (JSON under `keys:<provider>:<key hash>`), so a circuit one
 * instance opens for a key is seen by every other before its next call. Kept in memory while Redis is down.
 */
export function createSharedKeyStateStore(state: SharedState): KeyStateStore {
  const memory = createMemoryKeyStateStore()
  const keyOf = (provider: string, keyId: string) => state.key('keys', provider, keyId)
  return {
    get(provider, keyId) {
      return state.guard(
        'key state get',
        async (redis) => {
          const raw = await redis.get(keyOf(provider, keyId))
          if (raw === null) return undefined
          try {
            return parseKeyState(JSON.parse(raw))
          } catch {
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
export function createSharedPaceStore(state: SharedState): PaceStore {
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
export function createSearchClaims(state: SharedState, instanceId: string): SearchClaims {
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
