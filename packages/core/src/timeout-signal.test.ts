import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import { timeoutSignal } from './timeout-signal.js'

// A garbage collection on demand, without starting the test process with --expose-gc.
setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

describe('timeoutSignal', () => {
  it('aborts with a TimeoutError after its time', async () => {
    const signal = timeoutSignal(30)
    expect(signal.aborted).toBe(false)
    await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }))
    expect((signal.reason as DOMException).name).toBe('TimeoutError')
  })

  it('aborts with the reason of a source signal that aborts first', () => {
    const parent = new AbortController()
    const signal = timeoutSignal(10_000, undefined, parent.signal)
    parent.abort(new Error('cancelled by the caller'))
    expect(signal.aborted).toBe(true)
    expect((signal.reason as Error).message).toBe('cancelled by the caller')
  })

  it('still fires after garbage collection, where AbortSignal.timeout inside AbortSignal.any does not', async () => {
    const parent = new AbortController()
    const signal = timeoutSignal(100, parent.signal)
    let fired = false
    signal.addEventListener('abort', () => (fired = true), { once: true })
    for (let i = 0; i < 10; i++) {
      gc()
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
    expect(fired).toBe(true)
  })
})
