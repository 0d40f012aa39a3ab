/**
 * `AbortSignal.any([...signals, AbortSignal.timeout(ms)])`, but one whose timeout fires. On Node 20 a timeout signal
 * that only `AbortSignal.any` refers to can be garbage-collected before its time, and then never aborts: a call it
 * guards waits forever. Here the timer holds the controller, so the timeout aborts with the same `TimeoutError` as
 * `AbortSignal.timeout`. Like it, the timer does not keep the process alive. `undefined` signals are skipped.
 */
export function timeoutSignal(ms: number, ...signals: readonly (AbortSignal | undefined)[]): AbortSignal {
  const controller = new AbortController()
  const timer = setTimeout(
    () => controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')),
    Math.max(0, ms),
  )
  timer.unref()
  const others = signals.filter((s): s is AbortSignal => s !== undefined)
  return others.length === 0 ? controller.signal : AbortSignal.any([controller.signal, ...others])
}
