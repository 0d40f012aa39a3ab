import { PerformanceObserver, constants } from 'node:perf_hooks'
import { describe, expect, it } from 'vitest'
import { collectYoungGeneration, useOneShotV8Flags } from './one-shot-flags.js'

/** The kinds of the garbage collections `run` brings about, as Node's performance timeline reports them. */
async function collectionsDuring(run: () => void): Promise<number[]> {
  const kinds: number[] = []
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) kinds.push((entry as unknown as { detail: { kind: number } }).detail.kind)
  })
  observer.observe({ entryTypes: ['gc'] })
  run()
  // Entries are delivered on a later turn of the event loop.
  await new Promise((resolve) => setTimeout(resolve, 50))
  observer.disconnect()
  return kinds
}

describe('collectYoungGeneration', () => {
  it('runs a minor collection under the one-shot flags', async () => {
    useOneShotV8Flags()
    const kinds = await collectionsDuring(collectYoungGeneration)
    expect(kinds).toContain(constants.NODE_PERFORMANCE_GC_MINOR)
  })
})
