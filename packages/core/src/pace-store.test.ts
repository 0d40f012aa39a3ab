import { describe, expect, it } from 'vitest'
import { createMemoryPaceStore } from './pace-store.js'

describe('createMemoryPaceStore', () => {
  it('spaces slots of one key by the interval, from now when idle', async () => {
    const pace = createMemoryPaceStore()
    expect(await pace.reserve('ddg', 1000, 5000)).toBe(5000)
    expect(await pace.reserve('ddg', 1000, 5000)).toBe(6000)
    expect(await pace.reserve('ddg', 1000, 5200)).toBe(7000)
    // Idle past the schedule: the next slot is now.
    expect(await pace.reserve('ddg', 1000, 9000)).toBe(9000)
    // Keys are independent.
    expect(await pace.reserve('other', 1000, 9000)).toBe(9000)
  })

  it('takes no slot that would come at or after notAfter', async () => {
    const pace = createMemoryPaceStore()
    expect(await pace.reserve('ddg', 1000, 0, 500)).toBe(0)
    expect(await pace.reserve('ddg', 1000, 0, 1000)).toBeUndefined()
    // The refused call took nothing: the next caller with time gets the slot at 1000.
    expect(await pace.reserve('ddg', 1000, 0, 5000)).toBe(1000)
  })
})
