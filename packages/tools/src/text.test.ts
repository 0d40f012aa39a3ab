import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { fitText, oneLine } from './_text.js'
import { dropNulls } from './json-schema.js'

const NOTE = /\n\n\[… (\d+) more characters not shown\]$/

describe('fitText', () => {
  it('never exceeds the budget, keeps a prefix and counts what it left out', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 3000 }),
        fc.integer({ min: 64, max: 2000 }),
        (text, maxChars) => {
          const fitted = fitText(text, maxChars)
          expect(fitted.text.length).toBeLessThanOrEqual(maxChars)
          if (!fitted.truncated) {
            expect(fitted.text).toBe(text)
            return
          }
          const match = NOTE.exec(fitted.text)
          expect(match).not.toBeNull()
          const kept = fitted.text.slice(0, match!.index)
          expect(text.startsWith(kept)).toBe(true)
          expect(Number(match![1])).toBe(text.length - kept.length)
          expect(fitted.omittedChars).toBe(text.length - kept.length)
          expect(/[\uD800-\uDBFF]$/.test(kept)).toBe(false)
        },
      ),
    )
  })

  it('prefers to cut at a paragraph break', () => {
    const text = `${'a'.repeat(900)}\n\n${'b'.repeat(900)}`
    const fitted = fitText(text, 1000)
    expect(fitted.text).toBe(`${'a'.repeat(900)}\n\n[… 902 more characters not shown]`)
  })
})

describe('oneLine', () => {
  it.each([
    ['a\n b\t c', 20, 'a b c'],
    ['abcdefghij', 5, 'abcd…'],
    ['  padded  ', 10, 'padded'],
  ])('%j (max %i) → %j', (text, max, expected) => {
    expect(oneLine(text, max)).toBe(expected)
  })

  it('never exceeds max and has no line breaks', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 500 }), fc.integer({ min: 1, max: 200 }), (text, max) => {
        const line = oneLine(text, max)
        expect(line.length).toBeLessThanOrEqual(max)
        expect(line).not.toMatch(/[\n\r\t]/)
      }),
    )
  })
})

describe('dropNulls', () => {
  it('removes exactly the top-level nulls and is idempotent', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.oneof(fc.constant(null), fc.jsonValue())), (args) => {
        const out = dropNulls(args) as Record<string, unknown>
        expect(Object.values(out)).not.toContain(null)
        expect(Object.keys(out).length).toBe(Object.values(args).filter((v) => v !== null).length)
        expect(dropNulls(out)).toEqual(out)
      }),
    )
  })

  it.each([[null], ['text'], [[1, null]], [42]])('passes %j through unchanged', (value) => {
    expect(dropNulls(value)).toEqual(value)
  })
})
