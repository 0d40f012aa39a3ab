import { describe, expect, it } from 'vitest'
import { checkPattern } from './_data.js'

describe('checkPattern', () => {
  it('accepts lower-case patterns, escapes with capitals included', () => {
    expect(() => checkPattern('x or y', '(?<![\\p{L}\\p{N}])\\S+ or \\S+\\b \\P{Lu}\\D')).not.toThrow()
  })

  it('refuses an upper-case letter: queries are lower-cased, so it would never match', () => {
    expect(() => checkPattern('is x down', '\\bIs\\s+\\S+\\s+down\\b')).toThrow(
      'intent-signals.json: pattern "is x down" has an upper-case letter; queries are lower-cased before matching, so write it in lower case',
    )
    expect(() => checkPattern('accented', 'über')).not.toThrow()
    expect(() => checkPattern('accented', 'Über')).toThrow(/upper-case letter/)
  })

  it('refuses a pattern that is not a valid Unicode regular expression', () => {
    expect(() => checkPattern('broken', '(?:a|b')).toThrow(SyntaxError)
  })
})
