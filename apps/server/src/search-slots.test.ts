import { describe, expect, it } from 'vitest'
import { createSearchSlots } from './search-slots.js'

const tick = () => new Promise((resolve) => setImmediate(resolve))

describe('createSearchSlots', () => {
  it('lets `limit` run and queues the rest in arrival order', async () => {
    const slots = createSearchSlots(2)
    const started: number[] = []
    const run = (id: number) => slots.acquire().then(() => started.push(id))
    void run(1)
    void run(2)
    void run(3)
    void run(4)
    await tick()
    expect(started).toEqual([1, 2])
    expect(slots.stats()).toEqual({ running: 2, waiting: 2, limit: 2 })
    slots.release()
    await tick()
    expect(started).toEqual([1, 2, 3])
    slots.release()
    await tick()
    expect(started).toEqual([1, 2, 3, 4])
    expect(slots.stats()).toEqual({ running: 2, waiting: 0, limit: 2 })
    slots.release()
    slots.release()
    expect(slots.stats().running).toBe(0)
  })

  it('a waiter whose signal aborts leaves the queue with the reason, and does not take a slot later', async () => {
    const slots = createSearchSlots(1)
    await slots.acquire()
    const controller = new AbortController()
    const gone = slots.acquire(controller.signal)
    const next = slots.acquire()
    let nextStarted = false
    void next.then(() => {
      nextStarted = true
    })
    controller.abort(new Error('request timeout'))
    await expect(gone).rejects.toThrow('request timeout')
    expect(slots.stats().waiting).toBe(1)
    slots.release()
    await tick()
    expect(nextStarted).toBe(true)
    expect(slots.stats()).toEqual({ running: 1, waiting: 0, limit: 1 })
  })

  it('rejects at once for an already aborted signal when it would have to wait', async () => {
    const slots = createSearchSlots(1)
    expect(slots.tryAcquire()).toBe(true)
    expect(slots.tryAcquire()).toBe(false)
    await expect(slots.acquire(AbortSignal.abort(new Error('gone')))).rejects.toThrow('gone')
    expect(slots.stats().waiting).toBe(0)
  })

  it('0 means no limit', async () => {
    const slots = createSearchSlots(0)
    expect(slots.limited).toBe(false)
    for (let i = 0; i < 1000; i++) expect(slots.tryAcquire()).toBe(true)
    await slots.acquire()
    expect(slots.stats().running).toBe(1001)
  })
})
