import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { hostMatches, httpUrl, isoDate, passesDomainFilters, plainText } from './text.js'
import { hasCollapsibleSpace } from './text/whitespace.js'

describe('plainText', () => {
  it.each([
    ['<strong>Rust</strong> &amp; async', 'Rust & async'],
    // Brave's recorded descriptions (providers-brave/test/fixtures/recorded): no space before punctuation.
    ['Semantic Kernel <strong>combines prompts</strong>. By', 'Semantic Kernel combines prompts. By'],
    ['<strong>Semantic</strong> <strong>Kernel</strong>, the', 'Semantic Kernel, the'],
    ['line one<br>line two<p>para</p>', 'line one line two para'],
    ['a&nbsp;b &#39;c&#39; &#x4E2D;', "a b 'c' 中"],
    ['bad &#xD800; &#99999999; &unknown;', 'bad &#xD800; &#99999999; &unknown;'],
    [null, ''],
    [42, ''],
    ['  many \n\t spaces ', 'many spaces'],
  ])('%j → %j', (input, expected) => expect(plainText(input)).toBe(expected))

  it('never throws and never returns tags', () => {
    fc.assert(fc.property(fc.string(), (s) => !/<\/?[a-z][^<>]*>/i.test(plainText(`<b>${s}</b>`).replace(s, ''))))
  })
})

describe('httpUrl', () => {
  it.each([
    ['https://example.com/a?b=1', 'https://example.com/a?b=1'],
    [' http://x.org ', 'http://x.org/'],
    ['ftp://x.org/file', null],
    ['javascript:alert(1)', null],
    ['/relative', null],
    [undefined, null],
  ])('%j → %j', (input, expected) => expect(httpUrl(input)).toBe(expected))
})

describe('isoDate', () => {
  it.each([
    ['2026-11-18T09:12:00', '2026-11-18T09:12:00.000Z'],
    ['2026-11-18T00:00:00.000Z', '2026-11-18T00:00:00.000Z'],
    ['2026-11-18T09:12:00+08:00', '2026-11-18T01:12:00.000Z'],
    ['Tue, 18 Nov 2026 09:12:00 GMT', '2026-11-18T09:12:00.000Z'],
    ['2026-11-18', '2026-11-18T00:00:00.000Z'],
    ['yesterday', null],
    ['', null],
    [null, null],
  ])('%j → %j', (input, expected) => expect(isoDate(input)).toBe(expected))
})

// The general path isoDate takes for every shape: Date.parse, then toISOString.
function isoDateViaDate(value: string): string | null {
  const trimmed = value.trim()
  if (trimmed === '') return null
  const hasZone = /(?:z|[+-]\d{2}:?\d{2})$/i.test(trimmed)
  const candidate = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(trimmed) && !hasZone ? `${trimmed}Z` : trimmed
  const ms = Date.parse(candidate)
  if (Number.isNaN(ms)) return null
  const date = new Date(ms)
  const year = date.getUTCFullYear()
  return year < 1000 || year > 9999 ? null : date.toISOString()
}

describe('isoDate on the Brave and Exa shapes', () => {
  const pad = (n: number, width: number) => String(n).padStart(width, '0')
  const dateTime = fc
    .record({
      year: fc.integer({ min: 0, max: 9999 }),
      month: fc.integer({ min: 0, max: 13 }),
      day: fc.integer({ min: 0, max: 32 }),
      hour: fc.integer({ min: 0, max: 25 }),
      minute: fc.integer({ min: 0, max: 61 }),
      second: fc.integer({ min: 0, max: 61 }),
      fraction: fc.constantFrom('', '.000', '.5', '.123', '.9999', '.abc'),
      zone: fc.constantFrom('', 'Z', 'z', '+00:00', ' '),
    })
    .map(
      (f) =>
        `${pad(f.year, 4)}-${pad(f.month, 2)}-${pad(f.day, 2)}T${pad(f.hour, 2)}:${pad(f.minute, 2)}:${pad(f.second, 2)}${f.fraction}${f.zone}`,
    )

  it('reads them as Date.parse does, rolled-over and out-of-range fields included', () => {
    fc.assert(
      fc.property(dateTime, (text) => {
        expect(isoDate(text)).toBe(isoDateViaDate(text))
      }),
      { numRuns: 5000 },
    )
  })

  it.each([
    '2021-02-29T00:00:00',
    '2024-02-29T23:59:59.999Z',
    '2021-04-31T10:00:00Z',
    '2021-01-01T24:00:00',
    '0999-12-31T00:00:00Z',
  ])('%j as Date.parse reads it', (text) => expect(isoDate(text)).toBe(isoDateViaDate(text)))
})

describe('hostMatches', () => {
  it.each([
    ['www.github.com', 'github.com', true],
    ['docs.github.com', 'github.com', true],
    ['notgithub.com', 'github.com', false],
    ['github.com', 'www.github.com', true],
  ])('%s ~ %s = %s', (host, domain, expected) => expect(hostMatches(host, domain)).toBe(expected))
})

describe('passesDomainFilters', () => {
  it.each([
    ['docs.github.com', { includeDomains: ['github.com'] }, true],
    ['gitlab.com', { includeDomains: ['github.com'] }, false],
    ['www.pinterest.com', { excludeDomains: ['pinterest.com'] }, false],
    ['example.com', { includeDomains: [], excludeDomains: [] }, true],
    ['a.example.com', { includeDomains: ['example.com'], excludeDomains: ['a.example.com'] }, false],
  ])('%s with %j → %s', (host, filters, expected) => expect(passesDomainFilters(host, filters)).toBe(expected))
})

describe('plainText fast paths', () => {
  // The reference: what plainText does without skipping steps that cannot change the text.
  const reference = (value: string) =>
    value
      .replace(/<\/?[a-z][^<>]{0,500}>/gi, (tag) =>
        /^<\/?(?:a|abbr|b|code|em|i|mark|s|small|span|strong|sub|sup|u)\b/i.test(tag) ? '' : ' ',
      )
      .replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,8});/gi, (m) => plainText(`x${m}x`).slice(1, -1))
      .replace(/\s+/g, ' ')
      .trim()
  const pieces = fc.constantFrom(
    'a',
    'Z',
    '9',
    ' ',
    '  ',
    '\t',
    '\n',
    '\r\n',
    '\u00a0',
    '\u2003',
    '\u3000',
    '\ufeff',
    '\u1680',
    '\u202f',
    '<b>',
    '</em>',
    '&amp;',
    '&nbsp;',
    '&#x4e2d;',
    '&bogus;',
    '<',
    '&',
    '中',
    'é',
    '😀',
  )

  it('collapses whitespace exactly like /\\s+/g on any mix of characters', () => {
    fc.assert(
      fc.property(
        fc.array(pieces, { maxLength: 40 }).map((a) => a.join('')),
        (s) => {
          expect(hasCollapsibleSpace(s)).toBe(s.replace(/\s+/g, ' ') !== s)
          expect(plainText(s)).toBe(reference(s))
        },
      ),
      { numRuns: 2000 },
    )
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        expect(hasCollapsibleSpace(s)).toBe(s.replace(/\s+/g, ' ') !== s)
      }),
      { numRuns: 2000 },
    )
  })
})
