import { describe, expect, it } from 'vitest'
import { bestOfGroups, percentile, sequentialRoundTrips, slowestSpanMs, summarize } from './_stats.js'

describe('summarize', () => {
  it.each([
    [[5], { n: 1, p50: 5, p95: 5, max: 5, mean: 5 }],
    [[1, 2, 3, 4], { n: 4, p50: 2, p95: 4, max: 4, mean: 2.5 }],
    [Array.from({ length: 100 }, (_, i) => 100 - i), { n: 100, p50: 50, p95: 95, max: 100, mean: 50.5 }],
  ])('%j', (samples, expected) => {
    expect(summarize(samples)).toEqual(expected)
  })

  it('reports NaN, not zero, for no samples', () => {
    expect(summarize([]).p50).toBeNaN()
    expect(percentile([], 50)).toBeNaN()
  })
})

describe('bestOfGroups', () => {
  it("takes the median of each five runs' fastest", () => {
    // Groups' bests: 300, 310, 305, 320 → the lower middle one of four by nearest rank.
    const samples = [330, 300, 340, 335, 331, 310, 350, 315, 312, 318, 305, 306, 390, 307, 309, 325, 320, 333, 322, 321]
    expect(bestOfGroups(samples)).toBe(305)
  })

  it('leaves out a tail shorter than a group and is NaN without a whole group', () => {
    expect(bestOfGroups([310, 320, 330, 340, 350, 100])).toBe(310)
    expect(bestOfGroups([1, 2, 3])).toBeNaN()
  })
})

describe('sequentialRoundTrips', () => {
  it.each([
    ['nothing', [], 0],
    ['one request', [{ startedAt: 0, endedAt: 100 }], 1],
    [
      'three in parallel',
      [
        { startedAt: 0, endedAt: 100 },
        { startedAt: 1, endedAt: 101 },
        { startedAt: 2, endedAt: 99 },
      ],
      1,
    ],
    [
      'issue, then 9 pages in parallel, then one more',
      [
        { startedAt: 0, endedAt: 100 },
        ...Array.from({ length: 9 }, (_, i) => ({ startedAt: 100 + i, endedAt: 200 + i })),
        { startedAt: 210, endedAt: 310 },
      ],
      3,
    ],
    [
      'strictly one after another, out of order in the log',
      [
        { startedAt: 200, endedAt: 300 },
        { startedAt: 0, endedAt: 100 },
        { startedAt: 100, endedAt: 200 },
      ],
      3,
    ],
    ['a request that never ended blocks later trips', [{ startedAt: 0 }, { startedAt: 500, endedAt: 600 }], 1],
  ])('%s', (_name, spans, expected) => {
    expect(sequentialRoundTrips(spans)).toBe(expected)
  })
})

describe('slowestSpanMs', () => {
  it('takes the longest finished request', () => {
    expect(slowestSpanMs([{ startedAt: 10, endedAt: 30 }, { startedAt: 0, endedAt: 45 }, { startedAt: 5 }])).toBe(45)
    expect(slowestSpanMs([])).toBe(0)
  })
})
