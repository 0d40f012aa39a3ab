import { INTENTS } from '@search-layer/core'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { expandQuery } from './index.js'

const anyString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.string({ unit: 'grapheme' }),
  fc.string({
    unit: fc.constantFrom('vs', ' or ', '和', '还是', 'k8s', 'Go', ' ', '😀', '\u0000', '区别', 'node.js', '教程', '?'),
  }),
  fc.string({ minLength: 10_000, maxLength: 10_240, unit: 'binary-ascii' }),
)
const classification = fc.record({
  intent: fc.constantFrom(...INTENTS),
  freshness: fc.constantFrom('pd', 'pw', 'pm', 'py', null),
  signals: fc.array(
    fc.record({ term: fc.string({ maxLength: 12 }), lang: fc.constantFrom('en', 'zh') as fc.Arbitrary<'en' | 'zh'> }),
    { maxLength: 3 },
  ),
})
const now = () => new Date('2026-03-14T10:00:00Z')

describe('expandQuery properties', () => {
  it('never throws; original first, capped, unique, non-empty', () => {
    fc.assert(
      fc.property(anyString, classification, fc.integer({ min: 1, max: 6 }), (query, c, maxQueries) => {
        const { queries } = expandQuery(query, c, { now, maxQueries })
        expect(queries.length).toBeLessThanOrEqual(maxQueries)
        if (queries.length > 0) expect(queries[0]?.kind).toBe('original')
        const keys = queries.map((q) => q.query.toLowerCase().replace(/\s+/g, ' ').trim())
        expect(new Set(keys).size).toBe(keys.length)
        for (const q of queries) expect(q.query.trim().length).toBeGreaterThan(0)
      }),
      { numRuns: 300 },
    )
  })

  it('is deterministic for a fixed clock', () => {
    fc.assert(
      fc.property(anyString, classification, (query, c) => {
        expect(expandQuery(query, c, { now })).toEqual(expandQuery(query, c, { now }))
      }),
      { numRuns: 150 },
    )
  })
})
