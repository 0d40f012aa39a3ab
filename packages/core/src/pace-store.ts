/**
 * One schedule of request slots per service, for a service with no key to learn limits for (DuckDuckGo asks for
 * politeness, not a stated rate). Process-wide by default; a server shares it across instances through Redis, so
 * two instances together keep the pace one would.
 */
export interface PaceStore {
  /**
   * Takes the next slot of `key`: at least `intervalMs` after the slot taken before it, never before `now` (epoch
   * ms). Resolves to the slot's time, or to `undefined` without taking it when it would be at or after `notAfter`.
   */
  reserve(key: string, intervalMs: number, now: number, notAfter?: number): Promise<number | undefined>
}

/** A `PaceStore` in this process's memory. */
export function createMemoryPaceStore(): PaceStore {
  const nextSlotAt = new Map<string, number>()
  return {
    async reserve(key, intervalMs, now, notAfter) {
      const at = Math.max(now, nextSlotAt.get(key) ?? 0)
      if (notAfter !== undefined && at >= notAfter) return undefined
      nextSlotAt.set(key, at + intervalMs)
      return at
    },
  }
}

/** The store providers use when they are given none: every provider in the process keeps one schedule. */
export const processPaceStore: PaceStore = createMemoryPaceStore()
