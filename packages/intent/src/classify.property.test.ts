import { INTENTS } from '@search-layer/core'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { classifyIntent } from './index.js'

const anyString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.string({ unit: 'grapheme' }),
  fc.string({
    unit: fc.constantFrom('vs', ' ', '新闻', '还是', 'how to', '😀', '\u0000', '\u202e', 'İ', 'ｖｓ', '\t', '教程'),
  }),
  fc.string({ minLength: 10_000, maxLength: 10_240, unit: 'binary-ascii' }),
)

describe('classifyIntent properties', () => {
  it('never throws and always returns a well-formed result', () => {
    fc.assert(
      fc.property(anyString, (query) => {
        const r = classifyIntent(query)
        expect(INTENTS).toContain(r.intent)
        expect(r.confidence).toBeGreaterThanOrEqual(0)
        expect(r.confidence).toBeLessThanOrEqual(1)
        expect(r.weights.keyword + r.weights.freshness + r.weights.authority).toBeCloseTo(1)
        for (const s of r.signals) expect(['en', 'zh']).toContain(s.lang)
      }),
      { numRuns: 300 },
    )
  })

  it('is deterministic', () => {
    fc.assert(
      fc.property(anyString, (query) => {
        expect(classifyIntent(query)).toEqual(classifyIntent(query))
      }),
      { numRuns: 200 },
    )
  })

  it('handles 10 KB of Chinese, emoji and control characters', () => {
    for (const query of [
      '深入'.repeat(5120),
      '😀'.repeat(5120),
      '\u0000\u0007\u001b'.repeat(3414),
      `${'a vs b '.repeat(1400)}今天`,
    ]) {
      expect(() => classifyIntent(query)).not.toThrow()
    }
  })

  it('tolerates non-string input from untyped callers', () => {
    expect(classifyIntent(undefined as unknown as string).intent).toBe('exploratory')
  })
})
