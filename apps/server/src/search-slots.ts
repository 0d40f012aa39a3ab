/**
 * At most `limit` searches running at once; later ones wait in arrival order.
 *
 * Why: a cache miss is CPU work (a dozen provider responses to parse, merge and score) plus waiting. Past the
 * point where the CPU is busy, more searches at once add no throughput: they hold more responses in memory (the
 * heap, and so RSS, grows with them) and make every one of them slower. On 2 cores with 100 connections of
 * misses, a limit of 32 kept throughput (113-123 vs 94-131 req/s unlimited, noisy) with less memory (RSS ~282
 * vs ~300 MB); 8 cost throughput (82 req/s).
 */
export interface SearchSlots {
  /** Whether a limit applies at all (`limit` > 0). */
  readonly limited: boolean
  /** Takes a free slot now, or returns false. */
  tryAcquire(): boolean
  /** Waits for a slot; rejects with the signal's reason if it aborts first (the waiter leaves the queue). */
  acquire(signal?: AbortSignal): Promise<void>
  release(): void
  /** Searches running and waiting, for metrics and health. */
  stats(): { running: number; waiting: number; limit: number }
}

interface Waiter {
  resolve: () => void
  reject: (reason: unknown) => void
  signal?: AbortSignal
  onAbort?: () => void
}

export function createSearchSlots(limit: number): SearchSlots {
  let running = 0
  const waiting: Waiter[] = []
  const limited = limit > 0
  return {
    limited,
    tryAcquire() {
      if (limited && running >= limit) return false
      running++
      return true
    },
    acquire(signal) {
      if (!limited || running < limit) {
        running++
        return Promise.resolve()
      }
      if (signal?.aborted) return Promise.reject(signal.reason)
      return new Promise<void>((resolve, reject) => {
        const waiter: Waiter = { resolve, reject }
        if (signal) {
          waiter.signal = signal
          waiter.onAbort = () => {
            const at = waiting.indexOf(waiter)
            if (at !== -1) waiting.splice(at, 1)
            reject(signal.reason)
          }
          signal.addEventListener('abort', waiter.onAbort, { once: true })
        }
        waiting.push(waiter)
      })
    },
    release() {
      const next = waiting.shift()
      if (next) {
        // The slot passes straight to the next waiter: `running` stays the same.
        if (next.onAbort) next.signal?.removeEventListener('abort', next.onAbort)
        next.resolve()
        return
      }
      if (running > 0) running--
    },
    stats() {
      return { running, waiting: waiting.length, limit }
    },
  }
}
