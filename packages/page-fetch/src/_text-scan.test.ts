import { ADVERSARIAL_TEXTS, measureGrowth, sizedText, LINEAR_GROWTH_LIMIT } from '@search-layer/testkit'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { firstHeading, markdownLinkMatches, trimTrailingPunctuation } from './_text-scan.js'

// What the scans replaced: same output required on every generated text.
const HEADING_RE = /^#{1,6}\s+(.+?)\s*#*$/m
const MD_LINK_RE = /\[([^\]]*)\]\((\S+?)(?:\s+"[^"]*")?\)/g
function trimByRecount(url: string): string {
  let raw = url
  while (/[.,;:!?'")\]}>]$/.test(raw)) {
    const last = raw.at(-1)
    if (last === ')' && (raw.match(/\(/g)?.length ?? 0) >= (raw.match(/\)/g)?.length ?? 0)) break
    if (last === ']' && (raw.match(/\[/g)?.length ?? 0) >= (raw.match(/]/g)?.length ?? 0)) break
    raw = raw.slice(0, -1)
  }
  return raw
}

const piecesText = (pieces: readonly string[]) =>
  fc.array(fc.constantFrom(...pieces), { maxLength: 40 }).map((parts) => parts.join(''))

describe('text scans match what they replaced', () => {
  it('firstHeading', () => {
    const text = piecesText(['#', '##', '#######', ' ', '  ', '\t', '\n', '\u2028', 'a', 'Title', '中', '#a'])
    fc.assert(
      fc.property(text, (t) => {
        expect(firstHeading(t)).toBe(HEADING_RE.exec(t)?.[1])
      }),
      { numRuns: 5000 },
    )
  })

  it('markdownLinkMatches', () => {
    const text = piecesText([
      '[',
      ']',
      '(',
      ')',
      '[a]',
      '](',
      '![](',
      'x',
      'http://e.com/',
      ' ',
      '\n',
      '\u00a0',
      '\u2028',
      '"t"',
      '"',
      '\t',
    ])
    fc.assert(
      fc.property(text, (t) => {
        const expected = Array.from(t.matchAll(MD_LINK_RE), (m) => ({
          index: m.index,
          length: m[0].length,
          label: m[1],
          target: m[2],
        }))
        expect(markdownLinkMatches(t)).toEqual(expected)
      }),
      { numRuns: 5000 },
    )
  })

  it('trimTrailingPunctuation', () => {
    const tail = piecesText(['a', '/', '(', ')', '[', ']', '{', '}', '.', ',', ';', ':', '!', '?', "'", '"', '>'])
    fc.assert(
      fc.property(tail, (t) => {
        const url = `https://e.com/${t}`
        expect(trimTrailingPunctuation(url)).toBe(trimByRecount(url))
      }),
      { numRuns: 5000 },
    )
  })
})

describe('text scans are linear', { timeout: 120_000 }, () => {
  it.each([
    ['firstHeading', 'heading with spaces', firstHeading],
    ['markdownLinkMatches', 'open brackets', markdownLinkMatches],
    ['markdownLinkMatches', 'link without close', markdownLinkMatches],
    ['markdownLinkMatches', 'image links without close', markdownLinkMatches],
    ['markdownLinkMatches', 'links without close', markdownLinkMatches],
    ['markdownLinkMatches', 'link titles without close', markdownLinkMatches],
    ['markdownLinkMatches', 'nested brackets', markdownLinkMatches],
    ['markdownLinkMatches', 'brackets, comments and references', markdownLinkMatches],
    ['markdownLinkMatches', 'spaces without newline', markdownLinkMatches],
    ['trimTrailingPunctuation', 'url + closing parens', trimTrailingPunctuation],
  ] as const)('%s on %s', (_fn, name, scan) => {
    const growth = measureGrowth(ADVERSARIAL_TEXTS[name]!, scan, { n: 2000, retryAbove: LINEAR_GROWTH_LIMIT })
    expect(growth.ratio, JSON.stringify(growth)).toBeLessThan(LINEAR_GROWTH_LIMIT)
  })
})

// A sanity bound, not a benchmark: 1 MiB of each input read in ~30 ms on a shared two-core machine; the old
// pattern took over a minute on 391 KB of `![](`. Generous, so only a return to quadratic time trips it.
describe('markdownLinkMatches reads 1 MiB of any of them in well under a second', () => {
  it.each([
    'image links without close',
    'links without close',
    'link titles without close',
    'nested brackets',
    'brackets, comments and references',
    'open brackets',
    'link without close',
  ])('%s', (name) => {
    const text = sizedText(name, 1 << 20)
    const start = performance.now()
    markdownLinkMatches(text)
    // A quadratic scan takes minutes at 1 MiB, a linear one tens of ms: 5 s tells them apart on a loaded machine.
    expect(performance.now() - start).toBeLessThan(5000)
  })
})
