/** The part of a node response (`http` or `http2`) the counter needs. */
interface ClosableResponse {
  readonly closed?: boolean
  once(event: 'close', listener: () => void): unknown
}

/**
 * Counts requests from arrival until their response is fully written or its connection is gone. A handler's
 * `Response` exists long before a streamed (SSE) body is written, so shutdown waits on this, not on the handler.
 */
export interface InFlightRequests {
  /** Counts one request until `outgoing` closes; without one, until `handled` settles. */
  track<T>(handled: Promise<T>, outgoing?: ClosableResponse): Promise<T>
  count(): number
  /** Resolves once no request is in flight (at once when none is). */
  drained(): Promise<void>
}

/** Creates the counter `startServer` drains on shutdown. */
export function createInFlightRequests(): InFlightRequests {
  let count = 0
  let waiters: (() => void)[] = []
  const done = () => {
    if (--count > 0) return
    const resolve = waiters
    waiters = []
    for (const w of resolve) w()
  }
  return {
    track(handled, outgoing) {
      count++
      // 'close' follows the last byte of the body, or the connection dropping: both end the request for good.
      if (outgoing && !outgoing.closed) outgoing.once('close', done)
      else handled.then(done, done)
      return handled
    },
    count: () => count,
    drained: () => (count === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve))),
  }
}
