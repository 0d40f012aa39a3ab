import { describe, expect, it } from 'vitest'
import { searchOutputFormat } from './search-format.js'

describe('searchOutputFormat (also the code cache variant of a search)', () => {
  it.each([
    [{}, true, 'markdown'],
    [{}, false, 'json'],
    [{}, undefined, 'json'],
    [{ json: true }, true, 'json'],
    [{ format: 'markdown' }, false, 'markdown'],
    [{ format: 'json' }, true, 'json'],
    [{ format: 'markdown', json: true }, true, 'json'],
  ] as const)('%j, stdout a terminal: %s -> %s', (values, isTTY, expected) => {
    expect(searchOutputFormat(values, isTTY)).toBe(expected)
  })
})
