import { describe, expect, it } from 'vitest'
import { callsSent } from './_fan-out.js'

describe('callsSent', () => {
  const counter = () => {
    const told: number[] = []
    return { told, tell: () => told.push(told.length + 1) }
  }

  it('tells once every expected call has reported its first request', () => {
    const { told, tell } = counter()
    const sent = callsSent(tell)
    const [a, b, c] = [sent.tracker(), sent.tracker(), sent.tracker()]
    sent.expect(3)
    a()
    b()
    // A retry, or another key, sends again: still one call.
    b()
    expect(told).toEqual([])
    c()
    expect(told).toEqual([1])
    sent.ended()
    expect(told).toEqual([1])
  })

  it('tells at once when the calls were all on the wire before the count was known', () => {
    const { told, tell } = counter()
    const sent = callsSent(tell)
    const [a, b] = [sent.tracker(), sent.tracker()]
    a()
    b()
    expect(told).toEqual([])
    sent.expect(2)
    expect(told).toEqual([1])
  })

  it('tells when a call ends first (a provider that does not report its requests, a call held by its pace)', () => {
    const { told, tell } = counter()
    const sent = callsSent(tell)
    const [a] = [sent.tracker(), sent.tracker()]
    sent.expect(2)
    a()
    sent.ended()
    expect(told).toEqual([1])
    sent.ended()
    expect(told).toEqual([1])
  })

  it('does nothing without a listener', () => {
    const sent = callsSent(undefined)
    const track = sent.tracker()
    sent.expect(1)
    expect(() => {
      track()
      sent.ended()
    }).not.toThrow()
  })
})
