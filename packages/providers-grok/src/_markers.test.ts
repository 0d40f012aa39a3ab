import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { textBeforeMarkers } from './_markers.js'

const reference = (text: string, end: number) =>
  text
    .slice(0, end)
    .replace(/(?:\s*\[\[\d+\]\]\([^)\s]*\))+\s*$/, '')
    .replace(/\s+$/, '')

// Strings made of the pieces markers are built from, so chains, broken markers and odd spaces all come up.
const piece = fc.constantFrom(
  '[[',
  ']]',
  '(',
  ')',
  ']](',
  '[[1]](',
  '1',
  '42',
  'a',
  'https://x.ai/a',
  ' ',
  '\n',
  '\u00a0',
  '\u3000',
  '.',
  '[',
  ']',
)
const text = fc.array(piece, { maxLength: 30 }).map((parts) => parts.join(''))

describe('textBeforeMarkers', () => {
  it.each([
    ['claim. [[1]](https://a.example) [[2]](https://b.example)  ', 'claim.'],
    ['no markers here  \n', 'no markers here'],
    ['x [[1]](a(b) ', 'x'],
    ['x[[1]](a)[[2]](b', 'x[[1]](a)[[2]](b'],
    ['[[1]](a)', ''],
  ])('%j → %j', (input, expected) => {
    expect(textBeforeMarkers(input, input.length)).toBe(expected)
  })

  it('matches the end-anchored regexes it replaces', () => {
    fc.assert(
      fc.property(text, fc.nat(), (t, n) => {
        const end = t.length === 0 ? 0 : n % (t.length + 1)
        expect(textBeforeMarkers(t, end)).toBe(reference(t, end))
      }),
      { numRuns: 5000 },
    )
  })
})
