import { afterAll, beforeAll, beforeEach } from 'vitest'
import { startEmulator } from './emulator.js'
import type { Emulator, EmulatorOptions } from './types.js'

/** Options of `useEmulator`: the emulator's own, and whether each test starts from a clean one. */
export interface UseEmulatorOptions extends EmulatorOptions {
  /** Clear faults, latencies, scripted answers and recorded requests before each test. Default true. */
  resetEachTest?: boolean
}

/**
 * The emulator of the calling test file or `describe` block, with the hooks that run it registered where it is
 * called: started before its first test, reset before each (unless `resetEachTest: false`), closed after the last.
 * The returned emulator is usable from inside hooks and tests; touching it while the file is being collected throws.
 *
 *     const emu = useEmulator()
 *     it('…', async () => { emu.fault('brave', { status: 500 }) … })
 */
export function useEmulator(options: UseEmulatorOptions = {}): Emulator {
  const { resetEachTest = true, ...emulatorOptions } = options
  let current: Emulator | undefined
  beforeAll(async () => {
    current = await startEmulator(emulatorOptions)
  })
  afterAll(async () => {
    await current?.close()
    current = undefined
  })
  if (resetEachTest) beforeEach(() => current?.reset())
  return new Proxy({} as Emulator, {
    get(_target, property) {
      if (!current) throw new Error(`useEmulator(): emulator.${String(property)} read outside a test or hook`)
      const value = Reflect.get(current, property, current)
      return typeof value === 'function' ? value.bind(current) : value
    },
  })
}
