import { describe, expect, it } from 'vitest'
import { MAX_LATENCY_SAMPLES, type LatencySample, summarizeLatency, withSample } from './_latency.js'

const answered = (...ms: number[]): LatencySample[] => ms.map((value) => ({ ms: value }))
const cutOff = (ms: number, n: number): LatencySample[] => Array.from({ length: n }, () => ({ ms, late: true }))

describe('summarizeLatency', () => {
  it('gives the quantiles of answered calls', () => {
    const summary = summarizeLatency(answered(100, 200, 300, 400, 500, 600, 700, 800, 900, 1000))
    expect(summary).toEqual({ samples: 10, late: 0, p50: { ms: 500 }, p90: { ms: 900 }, p95: { ms: 1000 } })
    expect(summarizeLatency([])).toBeUndefined()
  })

  it('never lets calls cut off early make a slow engine look fast', () => {
    // Cut off at 1.5 s ten times, answered at 7 s twice: it takes 7 s, not 1.5.
    const summary = summarizeLatency([...cutOff(1500, 10), ...answered(7000, 7100)])
    expect(summary).toMatchObject({ samples: 12, late: 10, p50: { ms: 7000 }, p95: { ms: 7100 } })
    // Counted as answers, the cut-offs would have said 1.5 s.
    expect(summarizeLatency(answered(...cutOff(1500, 10).map((s) => s.ms), 7000, 7100))!.p50.ms).toBe(1500)
  })

  it('gives a lower bound when every slower call was cut off', () => {
    const summary = summarizeLatency([...answered(400), ...cutOff(2000, 5)])
    expect(summary!.p50).toEqual({ ms: 2000, atLeast: true })
    expect(summarizeLatency(cutOff(2000, 3))!.p90).toEqual({ ms: 2000, atLeast: true })
  })

  it('leaves quick answers quick when the cut-offs came later', () => {
    // A cut-off at 5 s says nothing against answers at 300 ms.
    const summary = summarizeLatency([...answered(300, 300, 300, 300), ...cutOff(5000, 1)])
    expect(summary!.p50).toEqual({ ms: 300 })
    expect(summary!.p95).toEqual({ ms: 5000, atLeast: true })
  })
})

describe('withSample', () => {
  it('keeps the last samples only, oldest out first', () => {
    let latency = withSample(undefined, { ms: 1 }, 10)
    for (let i = 2; i <= MAX_LATENCY_SAMPLES + 5; i++) latency = withSample(latency, { ms: i }, 10 + i)
    expect(latency.samples).toHaveLength(MAX_LATENCY_SAMPLES)
    expect(latency.samples[0]).toEqual({ ms: 6 })
    expect(latency.updatedAt).toBe(10 + MAX_LATENCY_SAMPLES + 5)
  })
})
