import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { hasCollapsibleSpace, hostMatches, httpUrl, isoDate, passesDomainFilters, plainText } from './text.js'

describe('plainText', () => {
  it.each([
    ['<strong>Rust</strong> &amp; async', 'Rust & async'],
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
  // The reference: what plainText did before it skipped steps that cannot change the text.
  const reference = (value: string) =>
    value
      .replace(/<\/?[a-z][^<>]{0,500}>/gi, ' ')
      .replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,8});/gi, (m) => plainText(`x${m}x`).slice(1, -1))
      .replace(/\s+/g, ' ')
      .trim()
  const pieces = fc.constantFrom('a', 'Z', '9', ' ', '  ', '\t', '\n', '\r\n', '\u00a0', '\u2003', '\u3000', '\ufeff', '\u1680', '\u202f', '<b>', '</em>', '&amp;', '&nbsp;', '&#x4e2d;', '&bogus;', '<', '&', '中', 'é', '😀')

  it('collapses whitespace exactly like /\\s+/g on any mix of characters', () => {
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 40 }).map((a) => a.join('')), (s) => {
        expect(hasCollapsibleSpace(s)).toBe(s.replace(/\s+/g, ' ') !== s)
        expect(plainText(s)).toBe(reference(s))
      }),
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
