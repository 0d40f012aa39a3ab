import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { SYNONYMS } from './_data.js'
import { type Replacement, applySynonyms } from './_text.js'

/** applySynonyms as it was before the substring pre-check: every rule's regex runs on every text. */
function referenceApplySynonyms(text: string): { text: string; applied: Replacement[] } {
  const applied: Replacement[] = []
  let out = text
  for (const rule of SYNONYMS) {
    rule.regex.lastIndex = 0
    if (!rule.regex.test(out)) continue
    if (out.toLowerCase().includes(rule.to.toLowerCase())) continue
    rule.regex.lastIndex = 0
    out = out.replace(rule.regex, (match) => {
      if (!applied.some((a) => a.from === match)) applied.push({ from: match, to: rule.to })
      return rule.to
    })
  }
  return { text: out, applied }
}

// Terms in any case, with their neighbours: words, punctuation, the characters that block a match, Han, odd Unicode.
const term = fc.constantFrom(...SYNONYMS.map((r) => r.from))
const caseOf = (s: string, mask: number) =>
  [...s].map((c, i) => ((mask >> i) & 1 ? c.toUpperCase() : c.toLowerCase())).join('')
const piece = fc.oneof(
  fc.tuple(term, fc.nat(1023)).map(([t, mask]) => caseOf(t, mask)),
  term,
  fc.constantFrom(
    ' ',
    '  ',
    '\t',
    '.',
    '-',
    '#',
    '+',
    '/',
    '@',
    '_',
    'to',
    'ahead',
    'node',
    '部署',
    'İ',
    'ſ',
    'K',
    'js',
    'Go',
  ),
  fc.string({ maxLength: 4 }),
)
const text = fc
  .tuple(fc.array(piece, { maxLength: 8 }), fc.constantFrom(' ', ''))
  .map(([parts, sep]) => parts.join(sep))

describe('applySynonyms', () => {
  it('gives what running every rule gives, for texts made of synonym terms and their neighbours', () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(applySynonyms(t)).toEqual(referenceApplySynonyms(t))
      }),
      { numRuns: 3000 },
    )
  })

  it.each([
    'k8s operator',
    'K8S部署',
    'Go to market',
    'learn Go',
    'aws   lambda cold start',
    'node.js vs js',
    'RN vs rn',
    'ts-node',
    'c# and csharp',
  ])('matches the reference on %s', (t) => {
    expect(applySynonyms(t)).toEqual(referenceApplySynonyms(t))
  })
})
