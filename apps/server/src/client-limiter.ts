import type { GuardedRedis } from './guarded-redis.js'

/** The verdict for one request. */
interface LimitVerdict {
  allowed: boolean
  limit: number
  remaining: number
  /** Until the window resets. */
  resetMs: number
}

/** A fixed-window counter per client; in Redis when configured, else (and while Redis is down) in memory. */
export interface ClientLimiter {
  hit(client: string): Promise<LimitVerdict>
}

// INCR and PEXPIRE must happen together, or a crash between them leaves a counter that never resets.
const HIT_SCRIPT = `local c = redis.call('INCR', KEYS[1])
if c == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {c, ttl}`

/** Creates the per-client limiter: `limit` requests per `windowMs`. */
export function createClientLimiter(
  state: GuardedRedis,
  { limit, windowMs, now = Date.now }: { limit: number; windowMs: number; now?: () => number },
): ClientLimiter {
  const windows = new Map<string, { count: number; resetAt: number }>()
  const verdict = (count: number, resetMs: number): LimitVerdict => ({
    allowed: count <= limit,
    limit,
    remaining: Math.max(0, limit - count),
    resetMs: Math.max(0, resetMs),
  })
  const local = (client: string): LimitVerdict => {
    const t = now()
    let w = windows.get(client)
    if (!w || w.resetAt <= t) {
      w = { count: 0, resetAt: t + windowMs }
      windows.set(client, w)
      // Forget finished windows so idle clients do not pile up.
      if (windows.size > 10_000) for (const [k, v] of windows) if (v.resetAt <= t) windows.delete(k)
    }
    w.count++
    return verdict(w.count, w.resetAt - t)
  }
  return {
    hit(client) {
      return state.guard(
        'rate limit',
        async (redis) => {
          const [count, ttl] = (await redis.eval(HIT_SCRIPT, 1, state.key('rl', client), String(windowMs))) as [
            number,
            number,
          ]
          return verdict(count, ttl)
        },
        () => local(client),
      )
    },
  }
}
