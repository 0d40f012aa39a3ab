import type { Redis } from 'ioredis'
import type { GuardedRedis } from './guarded-redis.js'

/**
 * A capped, newest-first list of JSON entries per caller in Redis: the shared half of the history and the tool-call
 * log. Each caller's list is one Redis key, so trimming and clearing never touch another caller's entries.
 */
export interface CallerList {
  push(redis: Redis, who: string, entry: unknown): Promise<void>
  /** The newest `limit` raw JSON lines. */
  range(redis: Redis, who: string, limit: number): Promise<string[]>
  /** Removes the entries whose JSON line `matches`; how many went. */
  removeWhere(redis: Redis, who: string, matches: (line: string) => boolean): Promise<number>
  /** Deletes the caller's list; how many entries it held. */
  clear(redis: Redis, who: string): Promise<number>
}

export function callerList(state: GuardedRedis, name: string, max: number): CallerList {
  const keyOf = (who: string) => state.key(name, who)
  return {
    async push(redis, who, entry) {
      await redis
        .multi()
        .lpush(keyOf(who), JSON.stringify(entry))
        .ltrim(keyOf(who), 0, max - 1)
        .exec()
    },
    range: (redis, who, limit) => redis.lrange(keyOf(who), 0, limit - 1),
    async removeWhere(redis, who, matches) {
      // Entries are stored as JSON strings: remove the exact strings of the matching ones.
      const matching = new Set((await redis.lrange(keyOf(who), 0, -1)).filter(matches))
      let removed = 0
      for (const line of matching) removed += await redis.lrem(keyOf(who), 0, line)
      return removed
    },
    async clear(redis, who) {
      const [[, n] = []] = (await redis.multi().llen(keyOf(who)).del(keyOf(who)).exec()) ?? []
      return typeof n === 'number' ? n : 0
    },
  }
}
