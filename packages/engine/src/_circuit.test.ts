import { describe, expect, it } from 'vitest'
import { CircuitBreaker, type CircuitTicket } from './_circuit.js'

function ticketOf(circuit: CircuitBreaker): CircuitTicket {
  const admission = circuit.admit()
  if (admission.type !== 'call') throw new Error(`expected a call to be admitted, got ${admission.type}`)
  return admission.ticket
}

const upstream = { kind: 'upstream' as const, message: '500' }

describe('CircuitBreaker', () => {
  const options = { failureThreshold: 3, cooldownMs: 1000, maxCooldownMs: 4000 }

  it('opens after consecutive failures, for a cooldown that doubles, and closes on success', () => {
    let t = 0
    const circuit = new CircuitBreaker(options, () => t)
    circuit.failure(ticketOf(circuit), { kind: 'upstream', message: 'x' })
    circuit.failure(ticketOf(circuit), { kind: 'upstream', message: 'x' })
    expect(circuit.isOpen()).toBe(false)
    circuit.failure(ticketOf(circuit), { kind: 'timeout', message: 'slow' })
    expect(circuit.state()).toMatchObject({
      open: true,
      until: 1000,
      consecutiveFailures: 3,
      lastError: { kind: 'timeout' },
    })
    t = 1000
    expect(circuit.isOpen()).toBe(false)
    circuit.failure(ticketOf(circuit), { kind: 'upstream', message: 'again' })
    expect(circuit.state().until).toBe(3000)
    t = 3000
    circuit.success(ticketOf(circuit))
    expect(circuit.state()).toMatchObject({ open: false, consecutiveFailures: 0 })
  })

  it('a rate limit opens it for exactly the Retry-After; quota for an hour', () => {
    const t = 0
    const circuit = new CircuitBreaker(options, () => t)
    circuit.failure(ticketOf(circuit), { kind: 'rate_limited', message: 'slow down', retryAfterMs: 7000 })
    expect(circuit.state().until).toBe(7000)
    const quota = new CircuitBreaker(options, () => t)
    quota.failure(ticketOf(quota), { kind: 'quota', message: 'out of credits' })
    expect(quota.state().until).toBe(3_600_000)
  })
})

describe('one opening per episode', () => {
  // Every combination of threshold, calls in flight and the moment their failures arrive (during the cooldown,
  // right at its end, after it while a probe is out): none of them moves the end of the rest.
  const cases = [1, 3, 5].flatMap((failureThreshold) =>
    [failureThreshold, 10, 50].flatMap((inFlight) =>
      [0, 15_000, 29_999].map((lateMs) => ({ failureThreshold, inFlight, lateMs })),
    ),
  )
  it.each(cases)(
    'threshold $failureThreshold, $inFlight calls in flight failing $lateMs ms after it opens: rests 30 s',
    ({ failureThreshold, inFlight, lateMs }) => {
      let t = 1_000
      const circuit = new CircuitBreaker({ failureThreshold, cooldownMs: 30_000, maxCooldownMs: 300_000 }, () => t)
      const tickets = Array.from({ length: inFlight }, () => ticketOf(circuit))
      for (const ticket of tickets.slice(0, failureThreshold)) circuit.failure(ticket, upstream)
      expect(circuit.state()).toMatchObject({ open: true, until: 31_000 })
      t += lateMs
      for (const ticket of tickets.slice(failureThreshold)) circuit.failure(ticket, upstream)
      expect(circuit.state()).toMatchObject({ open: true, until: 31_000, phase: 'open' })
      t = 31_000
      expect(circuit.state().phase).toBe('half_open')
      circuit.success(ticketOf(circuit))
      expect(circuit.state()).toMatchObject({ open: false, phase: 'closed', consecutiveFailures: 0 })
    },
  )

  it('50 concurrent failures after a 1 s blip rest the provider for the first cooldown, then one probe closes it', () => {
    let t = 0
    const circuit = new CircuitBreaker({ failureThreshold: 3, cooldownMs: 30_000, maxCooldownMs: 300_000 }, () => t)
    const inFlight = Array.from({ length: 50 }, () => ticketOf(circuit))
    for (const [i, ticket] of inFlight.entries()) {
      t = i * 20 // the failures arrive over the 1 s blip
      circuit.failure(ticket, upstream)
    }
    expect(circuit.state().until).toBe(40 + 30_000) // opened by the third failure, at t = 40
    t = 30_040
    const probe = circuit.admit()
    expect(probe).toMatchObject({ type: 'call', ticket: { probe: true } })
    circuit.success((probe as { ticket: CircuitTicket }).ticket)
    expect(circuit.state().phase).toBe('closed')
    expect(circuit.admit()).toMatchObject({ type: 'call', ticket: { probe: false } })
  })

  it('stale successes neither close an open circuit nor reset the count of a new episode', () => {
    let t = 0
    const circuit = new CircuitBreaker({ failureThreshold: 3, cooldownMs: 1000, maxCooldownMs: 4000 }, () => t)
    const early = ticketOf(circuit)
    const lateFromOldEpisode = ticketOf(circuit)
    for (let i = 0; i < 3; i++) circuit.failure(ticketOf(circuit), upstream)
    circuit.success(early)
    expect(circuit.state()).toMatchObject({ open: true, until: 1000 })
    t = 1000
    circuit.success(ticketOf(circuit))
    circuit.failure(ticketOf(circuit), upstream)
    circuit.success(lateFromOldEpisode)
    expect(circuit.state().consecutiveFailures).toBe(1)
  })
})

describe('half-open probing', () => {
  const options = { failureThreshold: 2, cooldownMs: 30_000, maxCooldownMs: 120_000 }
  const openAt = (circuit: CircuitBreaker) => {
    for (let i = 0; i < options.failureThreshold; i++) circuit.failure(ticketOf(circuit), upstream)
  }

  it('lets one probe through; the others wait for it and go on when it succeeds', async () => {
    let t = 0
    const circuit = new CircuitBreaker(options, () => t)
    openAt(circuit)
    expect(circuit.admit()).toEqual({ type: 'rest', until: 30_000 })
    t = 30_000
    const probe = ticketOf(circuit)
    const waiting = [circuit.admit(), circuit.admit(), circuit.admit()]
    expect(waiting.map((a) => a.type)).toEqual(['wait', 'wait', 'wait'])
    circuit.success(probe)
    await Promise.all(waiting.map((a) => (a as { settled: Promise<void> }).settled))
    expect(circuit.admit()).toMatchObject({ type: 'call', ticket: { probe: false } })
  })

  it.each([
    [1, 60_000],
    [2, 120_000],
    [3, 120_000],
  ])('%i failed probe(s) in a row rest it for %i ms; a success resets the cooldown', (failedProbes, restMs) => {
    let t = 0
    const circuit = new CircuitBreaker(options, () => t)
    openAt(circuit)
    let until = circuit.state().until!
    for (let i = 0; i < failedProbes; i++) {
      t = until
      const probe = ticketOf(circuit)
      circuit.failure(probe, upstream)
      until = circuit.state().until!
    }
    expect(until - t).toBe(restMs)
    t = until
    circuit.success(ticketOf(circuit))
    openAt(circuit)
    expect(circuit.state().until! - t).toBe(30_000)
  })

  it('waiters of a failed probe find the circuit resting again', async () => {
    let t = 0
    const circuit = new CircuitBreaker(options, () => t)
    openAt(circuit)
    t = 30_000
    const probe = ticketOf(circuit)
    const waiter = circuit.admit()
    circuit.failure(probe, { kind: 'network', message: 'reset' })
    await (waiter as { settled: Promise<void> }).settled
    expect(circuit.admit()).toEqual({ type: 'rest', until: 90_000 })
  })

  it('an abandoned probe frees the slot for the next call without deciding anything', () => {
    let t = 0
    const circuit = new CircuitBreaker(options, () => t)
    openAt(circuit)
    t = 30_000
    circuit.abandon(ticketOf(circuit))
    expect(circuit.state().phase).toBe('half_open')
    expect(circuit.admit()).toMatchObject({ type: 'call', ticket: { probe: true } })
  })

  it('a ticket settles once: a second report of the same call is ignored', () => {
    let t = 0
    const circuit = new CircuitBreaker(options, () => t)
    openAt(circuit)
    t = 30_000
    const probe = ticketOf(circuit)
    circuit.success(probe)
    circuit.failure(probe, upstream)
    expect(circuit.state().phase).toBe('closed')
  })

  it('a probe answered with Retry-After rests for that long, and the next failed probe uses the first cooldown', () => {
    let t = 0
    const circuit = new CircuitBreaker(options, () => t)
    openAt(circuit)
    t = 30_000
    circuit.failure(ticketOf(circuit), { kind: 'rate_limited', message: '429', retryAfterMs: 5_000 })
    expect(circuit.state().until).toBe(35_000)
    t = 35_000
    circuit.failure(ticketOf(circuit), upstream)
    expect(circuit.state().until).toBe(35_000 + 30_000)
  })

  it('restUntil rests until the given time, never shortens a longer rest, and a stale probe cannot close it', () => {
    let t = 0
    const circuit = new CircuitBreaker(options, () => t)
    openAt(circuit)
    t = 30_000
    const probe = ticketOf(circuit)
    circuit.restUntil(90_000, { kind: 'auth', message: 'shared from another instance' })
    circuit.success(probe)
    expect(circuit.state()).toMatchObject({ open: true, until: 90_000, lastError: { kind: 'auth' } })
    circuit.restUntil(60_000, upstream)
    expect(circuit.state().until).toBe(90_000)
    t = 90_000
    expect(circuit.state().phase).toBe('half_open')
  })
})
