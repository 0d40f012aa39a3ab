import { describe, expect, it } from 'vitest'
import { ProviderError } from '@search-layer/core'
import { RateLimiter } from './_rate-limit.js'

describe('RateLimiter', () => {
  it('lets a burst through at once, then spaces calls at the sustained rate', async () => {
    const limiter = new RateLimiter('brave', { perSecond: 20, burst: 2, maxConcurrent: 10 })
    const t0 = Date.now()
    const times: number[] = []
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        const release = await limiter.acquire()
        times.push(Date.now() - t0)
        release()
      }),
    )
    times.sort((a, b) => a - b)
    expect(times[0]).toBeLessThan(20)
    expect(times[1]).toBeLessThan(20)
    // 20/s → one token every 50 ms for the two that queued.
    expect(times[2]).toBeGreaterThanOrEqual(40)
    expect(times[3]).toBeGreaterThanOrEqual(90)
  })

  it('caps concurrency and hands the slot to the next waiter on release', async () => {
    const limiter = new RateLimiter('exa', { perSecond: 1000, burst: 1000, maxConcurrent: 1 })
    const first = await limiter.acquire()
    let secondStarted = false
    const second = limiter.acquire().then((release) => {
      secondStarted = true
      return release
    })
    await new Promise((r) => setTimeout(r, 20))
    expect(secondStarted).toBe(false)
    first()
    const release = await second
    expect(secondStarted).toBe(true)
    release()
  })

  it('a waiter that gets its slot stops listening on the shared signal', async () => {
    const limiter = new RateLimiter('exa', { perSecond: 1000, burst: 1000, maxConcurrent: 1 })
    const controller = new AbortController()
    let listening = 0
    const add = controller.signal.addEventListener.bind(controller.signal)
    const remove = controller.signal.removeEventListener.bind(controller.signal)
    controller.signal.addEventListener = ((...args: Parameters<typeof add>) => {
      listening++
      return add(...args)
    }) as typeof add
    controller.signal.removeEventListener = ((...args: Parameters<typeof remove>) => {
      listening--
      return remove(...args)
    }) as typeof remove
    // Twelve calls of one search queue on one slot, all with the search's signal.
    const calls = Array.from({ length: 12 }, async () => {
      const release = await limiter.acquire({ signal: controller.signal })
      await new Promise((r) => setImmediate(r))
      release()
    })
    await Promise.all(calls)
    expect(listening).toBe(0)
  })

  it('refuses a waiter whose deadline passes in the queue, with a timeout error', async () => {
    const limiter = new RateLimiter('brave', { perSecond: 1, burst: 1, maxConcurrent: 5 })
    const release = await limiter.acquire()
    const error = await limiter.acquire({ deadlineAt: Date.now() + 30 }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ProviderError)
    expect(error).toMatchObject({ kind: 'timeout', provider: 'brave' })
    release()
  })

  it('adapt changes the pace of calls already waiting, and pauseUntil holds every call until then', async () => {
    const limiter = new RateLimiter('brave', { perSecond: 1, burst: 1, maxConcurrent: 10 })
    ;(await limiter.acquire())()
    const t0 = Date.now()
    const waiting = Promise.all([limiter.acquire(), limiter.acquire()])
    limiter.adapt({ perSecond: 100, burst: 100 })
    for (const release of await waiting) release()
    // At 1/s the second of these would have waited two seconds.
    expect(Date.now() - t0).toBeLessThan(500)
    expect(limiter.current()).toMatchObject({ perSecond: 100, burst: 100 })

    limiter.pauseUntil(Date.now() + 200)
    expect(limiter.ready()).toBe(false)
    expect(limiter.pausedTill()).toBeGreaterThan(Date.now())
    const paused = Date.now()
    ;(await limiter.acquire())()
    expect(Date.now() - paused).toBeGreaterThanOrEqual(190)
  })
})
