import { describe, expect, it } from 'vitest'
import { CircuitBreaker } from './_circuit.js'

describe('CircuitBreaker', () => {
  const options = { failureThreshold: 3, cooldownMs: 1000, maxCooldownMs: 4000 }

  it('opens after consecutive failures, for a cooldown that doubles, and closes on success', () => {
    let t = 0
    const circuit = new CircuitBreaker(options, () => t)
    circuit.failure({ kind: 'upstream', message: 'x' })
    circuit.failure({ kind: 'upstream', message: 'x' })
    expect(circuit.isOpen()).toBe(false)
    circuit.failure({ kind: 'timeout', message: 'slow' })
    expect(circuit.state()).toMatchObject({
      open: true,
      until: 1000,
      consecutiveFailures: 3,
      lastError: { kind: 'timeout' },
    })
    t = 1000
    expect(circuit.isOpen()).toBe(false)
    circuit.failure({ kind: 'upstream', message: 'again' })
    expect(circuit.state().until).toBe(3000)
    t = 3000
    circuit.success()
    expect(circuit.state()).toMatchObject({ open: false, consecutiveFailures: 0 })
  })

  it('a rate limit opens it for exactly the Retry-After; quota for an hour', () => {
    const t = 0
    const circuit = new CircuitBreaker(options, () => t)
    circuit.failure({ kind: 'rate_limited', message: 'slow down', retryAfterMs: 7000 })
    expect(circuit.state().until).toBe(7000)
    const quota = new CircuitBreaker(options, () => t)
    quota.failure({ kind: 'quota', message: 'out of credits' })
    expect(quota.state().until).toBe(3_600_000)
  })
})
