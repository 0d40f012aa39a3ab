import { describe, expect, it } from 'vitest'
import { longestLoopDelay } from './loop-delay.js'

/** Holds the event loop for `ms`. */
function block(ms: number): void {
  const until = performance.now() + ms
  while (performance.now() < until);
}

describe('longestLoopDelay', () => {
  // A helper that misses a block passes every bound: each case would read ~0 ms without the idle ticks around run.
  it.each([
    ['as run starts', async () => block(150)],
    [
      'as run ends, nothing after it',
      async () => {
        await Promise.resolve()
        block(150)
      },
    ],
    [
      'between awaits',
      async () => {
        await new Promise((resolve) => setTimeout(resolve, 5))
        block(150)
        await new Promise((resolve) => setTimeout(resolve, 5))
      },
    ],
  ])('sees a block %s', async (_, run) => {
    expect(await longestLoopDelay(run)).toBeGreaterThanOrEqual(130)
  })
})
