import { monitorEventLoopDelay } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'

const RESOLUTION_MS = 10

/**
 * The longest the event loop waited while `run` ran (ms), from a 10 ms-resolution histogram: how long a server
 * doing this work would leave a health check or another request unanswered.
 *
 * The histogram learns of a block only when its timer fires late after it, and it has no tick to measure from
 * until its first: a block as `run` starts, or one as it ends with nothing after it, would read as no delay at
 * all. So the loop idles two ticks before `run` and two after.
 */
export async function longestLoopDelay(run: () => Promise<unknown>): Promise<number> {
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS })
  histogram.enable()
  try {
    await sleep(2 * RESOLUTION_MS)
    await run()
    await sleep(2 * RESOLUTION_MS)
  } finally {
    histogram.disable()
  }
  return histogram.max / 1e6
}
