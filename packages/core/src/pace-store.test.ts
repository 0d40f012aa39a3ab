import { describe, expect, it } from 'vitest'
import { createMemoryPaceStore } from './pace-store.js'

describe('createMemoryPaceStore', () => {
  it('spaces slots of one key by the interval, from now when idle', async () => {
    const pace = createMemoryPaceStore()
    const at = (now: number, key = 'ddg') => pace.reserve(key, { intervalMs: 1000, now })
    expect(await at(5000)).toBe(5000)
    expect(await at(5000)).toBe(6000)
    expect(await at(5200)).toBe(7000)
    // Idle past the schedule: the next slot is now.
    expect(await at(9000)).toBe(9000)
    // Keys are independent.
    expect(await at(9000, 'other')).toBe(9000)
  })

  it('lets a burst go at once after an idle period, then one per interval', async () => {
    const pace = createMemoryPaceStore()
    const at = (now: number) => pace.reserve('wiki', { intervalMs: 500, burst: 3, now })
    expect([await at(0), await at(0), await at(0), await at(0), await at(0)]).toEqual([0, 0, 0, 500, 1000])
    // After 2 s idle the bucket is full again.
    expect([await at(3000), await at(3000), await at(3000), await at(3000)]).toEqual([3000, 3000, 3000, 3500])
  })

  it('takes no slot that would come at or after notAfter', async () => {
    const pace = createMemoryPaceStore()
    expect(await pace.reserve('ddg', { intervalMs: 1000, now: 0, notAfter: 500 })).toBe(0)
    expect(await pace.reserve('ddg', { intervalMs: 1000, now: 0, notAfter: 1000 })).toBeUndefined()
    // The refused call took nothing: the next caller with time gets the slot at 1000.
    expect(await pace.reserve('ddg', { intervalMs: 1000, now: 0, notAfter: 5000 })).toBe(1000)
  })
})
