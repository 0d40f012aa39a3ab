import { describe, expect, it } from 'vitest'
import { UsageError } from '../io.js'
import { outputFormat } from './output-format.js'

describe('outputFormat (also the code cache variant of a search)', () => {
  it.each([
    [{}, true, 'markdown'],
    [{}, false, 'json'],
    [{}, undefined, 'json'],
    [{ json: true }, true, 'json'],
    [{ format: 'markdown' }, false, 'markdown'],
    [{ format: 'json' }, true, 'json'],
    [{ format: 'json', json: true }, true, 'json'],
  ] as const)('%j, stdout a terminal: %s -> %s', (values, isTTY, expected) => {
    expect(outputFormat(values, isTTY)).toBe(expected)
  })

  it('refuses --json with --format markdown rather than picking one', () => {
    expect(() => outputFormat({ json: true, format: 'markdown' }, true)).toThrow(
      new UsageError('--json and --format markdown disagree; give one of them'),
    )
  })
})
