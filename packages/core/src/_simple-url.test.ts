import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { FRAGMENT, PATH, parseSimpleUrl, QUERY, scanSimpleUrl } from './_simple-url.js'

function whatwg(text: string) {
  const url = new URL(text)
  const { protocol, hostname, port, pathname, search, hash, href } = url
  return { protocol, hostname, port, pathname, search, hash, href }
}

describe('parseSimpleUrl', () => {
  it.each([
    'https://example.com',
    'https://example.com/',
    'http://www.example.com/a/b-c_d.e~f',
    'https://docs.rs/tokio/latest/tokio/?search=spawn&x=%2F',
    'https://example.com?q=1',
    'https://example.com#top',
    'https://example.com/a?',
    'https://example.com/a#',
    'https://example.com/a?#',
    'https://example.com/a?b=c?d#e#f?g',
    "https://example.com/it's/(1)/a;b=c,d:e@f!$*+",
    'https://sub-1.example-2.co.uk/%7Euser/%zz?%41=%e9',
    'https://m.example.com/amp/x/',
    'https://example.com//a///b//',
    'https://zh.wikipedia.org/wiki/异步编程?q=é#节',
    'https://example.com/😀?x=😀',
  ])('splits %s exactly as the WHATWG parser does', (text) => {
    expect(parseSimpleUrl(text)).toEqual(whatwg(text))
  })

  it.each([
    ['upper-case host', 'https://Example.com/a'],
    ['upper-case scheme', 'HTTPS://example.com/a'],
    ['port', 'https://example.com:8080/a'],
    ['credentials', 'https://user:pw@example.com/a'],
    ['IPv4 host', 'http://127.0.0.1/'],
    ['number-like last label', 'http://example.0x1f/'],
    ['punycode', 'https://xn--mnchen-3ya.de/'],
    ['trailing dot', 'https://example.com./a'],
    ['empty label', 'https://a..com/'],
    ['dot segment', 'https://example.com/a/../b'],
    ['encoded dot segment', 'https://example.com/a/%2e%2E/b'],
    ['backslash', 'https://example.com\\a'],
    ['space', 'https://example.com/a b'],
    ['quote in query', "https://example.com/?a='b'"],
    ['non-ASCII host', 'https://bücher.de/'],
    ['lone surrogate', 'https://example.com/\ud800'],
    ['other scheme', 'ftp://example.com/'],
    ['no host', 'https:///a'],
  ])('leaves a URL with %s to the WHATWG parser', (_name, text) => {
    expect(parseSimpleUrl(text)).toBeNull()
  })

  it('agrees with the WHATWG parser whenever it accepts a string', () => {
    const label = fc.oneof(
      { weight: 6, arbitrary: fc.stringMatching(/^[a-z0-9-]{1,6}$/) },
      { weight: 1, arbitrary: fc.constantFrom('xn--a', '0x1f', '123', '', 'Ab', 'www', 'm', 'é') },
    )
    const host = fc.array(label, { minLength: 1, maxLength: 4 }).map((labels) => labels.join('.'))
    const tail = fc.string({
      unit: fc.oneof(
        { weight: 20, arbitrary: fc.constantFrom(...'aZ09-._~/?#=&%'.split('')) },
        {
          weight: 2,
          arbitrary: fc.constantFrom(
            ...'!$\'()*+,;:@[]{}|\\^`"<> \té'.split(''),
            '异步',
            '😀',
            '\ud800',
            '\u3000',
            '\ufeff',
            '%2e',
            '%2E',
            '..',
            '/./',
            '%41',
          ),
        },
      ),
      maxLength: 20,
    })
    let accepted = 0
    fc.assert(
      fc.property(
        fc.constantFrom('https://', 'http://', 'HTTP://'),
        host,
        fc.constantFrom('', '', '', '', '', ':8080', ':443', '.'),
        fc.constantFrom('/', '/', '/', '?', '#', ''),
        tail,
        (scheme, name, port, start, rest) => {
          const text = scheme + name + port + start + rest
          const simple = parseSimpleUrl(text)
          if (simple === null) return
          accepted++
          expect(simple).toEqual(whatwg(text))
        },
      ),
      { numRuns: 20_000 },
    )
    // The property means little unless the fast path takes a good share of the strings.
    expect(accepted).toBeGreaterThan(1_000)
  })

  it('accepts the web URLs providers usually send', () => {
    let accepted = 0
    fc.assert(
      fc.property(
        fc.webUrl({ withQueryParameters: true, withFragments: true, validSchemes: ['https', 'http'] }),
        (text) => {
          const simple = parseSimpleUrl(text)
          if (simple === null) return
          accepted++
          expect(simple).toEqual(whatwg(text))
        },
      ),
      { numRuns: 5_000 },
    )
    expect(accepted).toBeGreaterThan(4_000)
  })
})

/** The regex this scanner replaced, kept as the reference it must agree with on every string. */
const REFERENCE =
  /^https?:\/\/([a-z0-9-]+(?:\.[a-z0-9-]+)*)(\/[\w\-.~!$&'()*+,;=:@/%\u0080-\uffff]*)?(\?[\w\-.~!$&()*+,;=:@/%?\u0080-\uffff]*)?(#[\w\-.~!$&'()*+,;=:@/%?#\u0080-\uffff]*)?$/

function referenceParse(text: string) {
  const match = REFERENCE.exec(text)
  if (match === null) return null
  const hostname = match[1]!
  const last = hostname.charCodeAt(hostname.lastIndexOf('.') + 1)
  if (last < 97 || last > 122 || hostname.includes('xn--')) return null
  try {
    const encode = (part: string | undefined) => part?.replace(/[^\x00-\x7f]+/g, encodeURIComponent)
    const path = encode(match[2])
    const query = encode(match[3])
    const fragment = encode(match[4])
    if (path !== undefined && /\/\.|%2e/i.test(path)) return null
    const https = text.startsWith('https')
    const rebuilt = `${text.slice(0, text.indexOf('//') + 2 + hostname.length)}${path ?? ''}${query ?? ''}${fragment ?? ''}`
    return {
      protocol: https ? 'https:' : 'http:',
      hostname,
      port: '',
      pathname: path ?? '/',
      search: query === undefined || query.length === 1 ? '' : query,
      hash: fragment === undefined || fragment.length === 1 ? '' : fragment,
      href:
        path === undefined
          ? `${https ? 'https' : 'http'}://${hostname}/${rebuilt.slice((https ? 8 : 7) + hostname.length)}`
          : rebuilt,
    }
  } catch {
    return null
  }
}

describe('scanSimpleUrl', () => {
  it('accepts and splits exactly what the regex it replaced did', () => {
    const label = fc.oneof(
      { weight: 6, arbitrary: fc.stringMatching(/^[a-z0-9-]{1,6}$/) },
      { weight: 1, arbitrary: fc.constantFrom('xn--a', 'axn--b', 'x-n--', '0x1f', '123', '', 'Ab', 'www', 'é', '1a') },
    )
    const host = fc.array(label, { minLength: 1, maxLength: 4 }).map((labels) => labels.join('.'))
    const tail = fc.string({
      unit: fc.oneof(
        { weight: 20, arbitrary: fc.constantFrom(...'aZ09-._~/?#=&%'.split('')) },
        {
          weight: 3,
          arbitrary: fc.constantFrom(
            ...'!$\'()*+,;:@[]{}|\\^`"<> \t\n'.split(''),
            'é',
            '异步',
            '😀',
            '\ud800',
            '\udc00',
            '\ud800a',
            '\u3000',
            '\ufeff',
            '\u0080',
            '\uffff',
            '%2e',
            '%2E',
            '%2',
            '/.',
            '..',
            '/./',
            '%41',
            '%e5',
            '//',
          ),
        },
      ),
      maxLength: 24,
    })
    let accepted = 0
    let refused = 0
    fc.assert(
      fc.property(
        fc.oneof(
          { weight: 8, arbitrary: fc.constantFrom('https://', 'http://') },
          { weight: 1, arbitrary: fc.constantFrom('HTTP://', 'https:/', 'httpx://', 'https:///', '') },
        ),
        host,
        fc.oneof(
          { weight: 8, arbitrary: fc.constant('') },
          { weight: 1, arbitrary: fc.constantFrom(':8080', '.', '@', '-') },
        ),
        fc.constantFrom('/', '/', '/', '?', '#', ''),
        tail,
        (scheme, name, after, start, rest) => {
          const text = scheme + name + after + start + rest
          const expected = referenceParse(text)
          if (expected === null) refused++
          else accepted++
          expect(parseSimpleUrl(text)).toEqual(expected)
        },
      ),
      { numRuns: 30_000 },
    )
    // Both answers need a good share of the strings for the property to mean much.
    expect(accepted).toBeGreaterThan(3_000)
    expect(refused).toBeGreaterThan(3_000)
  })

  it('reports where each part starts and which hold non-ASCII', () => {
    const scan = scanSimpleUrl('http://a.b/异?x=é#y')
    expect(scan).toEqual({ https: false, hostEnd: 10, pathEnd: 12, queryEnd: 16, nonAscii: PATH | QUERY })
    expect(scanSimpleUrl('https://a.b#😀')).toEqual({
      https: true,
      hostEnd: 11,
      pathEnd: 11,
      queryEnd: 11,
      nonAscii: FRAGMENT,
    })
  })
})
