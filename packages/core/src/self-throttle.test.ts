import { describe, expect, it } from 'vitest'
import { ProviderError } from './errors.js'
import { createSelfThrottle } from './self-throttle.js'
import { DEFAULT_MAX_KEY_REST_MS } from './upstream-wait.js'

function throttleAt(start: number) {
  const clock = { now: start }
  const throttle = createSelfThrottle({
    provider: 'github',
    code: 'rate_limit_wait',
    reason: 'search limit still in force',
    clock: () => clock.now,
  })
  return { throttle, clock }
}

const refusal = (fn: () => void): ProviderError | undefined => {
  try {
    fn()
  } catch (error) {
    return error as ProviderError
  }
  return undefined
}

describe('createSelfThrottle', () => {
  it('lets calls through until a wait is held, refuses them during it, and lets them through after', () => {
    const { throttle, clock } = throttleAt(1_000_000)
    expect(refusal(() => throttle.check())).toBeUndefined()
    throttle.hold(30_000)
    clock.now += 10_500
    const error = refusal(() => throttle.check())
    expect(error).toBeInstanceOf(ProviderError)
    expect(error).toMatchObject({
      kind: 'rate_limited',
      provider: 'github',
      code: 'rate_limit_wait',
      retryAfterMs: 19_500,
      retryable: true,
    })
    expect(error?.message).toBe('github search limit still in force; retry after 20s')
    clock.now += 19_500
    expect(refusal(() => throttle.check())).toBeUndefined()
  })

  it('never lets a shorter wait shorten a longer one', () => {
    const { throttle, clock } = throttleAt(0)
    throttle.hold(60_000)
    throttle.hold(1_000)
    clock.now = 59_000
    expect(refusal(() => throttle.check())?.retryAfterMs).toBe(1_000)
  })

  it.each([undefined, null, -5, 0, Number.NaN, Number.POSITIVE_INFINITY, '30', 400 * 24 * 3600_000])(
    'ignores a wait of %s',
    (waitMs) => {
      const { throttle } = throttleAt(0)
      throttle.hold(waitMs)
      expect(refusal(() => throttle.check())).toBeUndefined()
    },
  )

  it("holds an upstream's word to a key's longest rest", () => {
    const { throttle } = throttleAt(0)
    throttle.hold(30 * 24 * 3600_000)
    expect(refusal(() => throttle.check())?.retryAfterMs).toBe(DEFAULT_MAX_KEY_REST_MS)
  })
})
