import { redactSecrets, stripUrlCredentials } from '@search-layer/core'
import { Redis } from 'ioredis'
import type { Logger } from 'pino'

/** Redis as an optional accelerator: every call has a deadline and an in-process fallback. */
export interface GuardedRedis {
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

export interface GuardedRedisOptions {
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
export function createGuardedRedis({
  redisUrl,
  prefix,
  timeoutMs,
  logger,
  hungAfterTimeouts = 3,
  probeIntervalMs = Math.max(1000, timeoutMs * 8),
}: GuardedRedisOptions): GuardedRedis {
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
