/** One request for a slot: the pace to keep, the caller's clock, and the latest slot worth taking. */
export interface PaceRequest {
  /** Least time between slots once a burst is spent (ms): 1000 / requests per second. */
  intervalMs: number
  /** Slots that may be taken at once after an idle period. Default 1. */
  burst?: number
  /** The caller's clock (epoch ms). */
  now: number
  /** A slot at or after this time (epoch ms) is not taken. */
  notAfter?: number
}

/**
 * One schedule of request slots per service, for a service with no key to learn limits for (DuckDuckGo asks for
 * politeness, not a stated rate). Process-wide by default; a server shares it across instances through Redis, so
 * two instances together keep the pace one would.
 */
export interface PaceStore {
  /**
   * Takes the next slot of `key` and resolves to its time (epoch ms, never before `now`): a token bucket of `burst`
   * slots refilled one per `intervalMs`, kept as the generic cell rate algorithm's one number (the theoretical
   * arrival time), so a store holds one value per key. Resolves to `undefined`, taking nothing, when the slot would
   * be at or after `notAfter`.
   */
  reserve(key: string, request: PaceRequest): Promise<number | undefined>
}

/**
 * The cell rate algorithm on one stored value, shared by every `PaceStore` (the server's Redis script does the same
 * sums): from the stored theoretical arrival time, the slot's time and the value to store, or undefined past notAfter.
 */
export function nextPaceSlot(
  stored: number | undefined,
  request: PaceRequest,
): { at: number; store: number } | undefined {
  const { intervalMs, now, notAfter } = request
  const burst = Math.max(1, Math.floor(request.burst ?? 1))
  const arrival = Math.max(stored ?? 0, now)
  const at = Math.max(now, arrival - (burst - 1) * intervalMs)
  if (notAfter !== undefined && at >= notAfter) return undefined
  return { at, store: arrival + intervalMs }
}

/** A `PaceStore` in this process's memory. */
export function createMemoryPaceStore(): PaceStore {
  const arrivals = new Map<string, number>()
  return {
    async reserve(key, request) {
      const slot = nextPaceSlot(arrivals.get(key), request)
      if (slot) arrivals.set(key, slot.store)
      return slot?.at
    },
  }
}

/** The store providers use when they are given none: every provider in the process keeps one schedule. */
export const processPaceStore: PaceStore = createMemoryPaceStore()
