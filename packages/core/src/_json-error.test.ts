import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { locateJsonError } from './_json-error.js'

const parses = (text: string) => {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

describe('locateJsonError', () => {
  it.each([
    ['{"exa": ', 1, 9, 'expected a value'],
    ['{\n  "brave": "k",\n  "exa": "x",\n}', 4, 1, 'expected a property name in double quotes'],
    ['{\n  "brave": {"apiKey": "k"}\n  "exa": "x"\n}', 3, 3, 'expected "," or "}" after a property value'],
    ["{'brave': 'k'}", 1, 2, 'expected a property name in double quotes'],
    ['{"brave": "k"} trailing', 1, 16, 'expected the end of the file'],
    ['{"brave": "a\nb"}', 1, 13, 'expected the string to end'],
    ['[1, 2', 1, 6, 'expected "," or "]"'],
    ['', 1, 1, 'expected a value'],
  ])('%j fails at line %i, column %i', (text, line, column, problem) => {
    expect(locateJsonError(text)).toMatchObject({ line, column, problem: expect.stringContaining(problem) })
  })

  it('quotes at most one character of the text', () => {
    const at = locateJsonError('{"brave": BSAsecretkey0123456789}')
    expect(at?.problem).toBe('expected a value (an object, array, string, number, true, false or null), found "B"')
  })

  it('agrees with JSON.parse on whether any text parses, and points inside it', () => {
    const jsonish = fc.oneof(
      fc.json().map((text) => text),
      fc.json().chain((text) => fc.nat(text.length).map((cut) => text.slice(0, cut))),
      fc
        .json()
        .chain((text) =>
          fc
            .tuple(fc.nat(text.length), fc.constantFrom(',', '}', ']', '"', ':', 'x', '\n', '\\', ' '))
            .map(([at, c]) => text.slice(0, at) + c + text.slice(at)),
        ),
      fc.string(),
    )
    fc.assert(
      fc.property(jsonish, (text) => {
        const at = locateJsonError(text)
        expect(at === undefined).toBe(parses(text))
        if (at) {
          expect(at.offset).toBeGreaterThanOrEqual(0)
          expect(at.offset).toBeLessThanOrEqual(text.length)
          expect(text.split('\n')[at.line - 1]!.length + 1).toBeGreaterThanOrEqual(at.column)
        }
      }),
      { numRuns: 2000 },
    )
  })
})
