import { monitorEventLoopDelay } from 'node:perf_hooks'

/**
 * The longest the event loop waited while `run` ran (ms), from a 10 ms-resolution histogram: how long a server
 * doing this work would leave a health check or another request unanswered.
 */
export async function longestLoopDelay(run: () => Promise<unknown>): Promise<number> {
  const histogram = monitorEventLoopDelay({ resolution: 10 })
  histogram.enable()
  try {
    await run()
  } finally {
    histogram.disable()
  }
  return histogram.max / 1e6
}
