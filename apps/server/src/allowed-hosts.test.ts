import { describe, expect, it } from 'vitest'
import { hostnameOf, isLoopbackHost, matchesAllowedHost, parseAllowedHosts } from './allowed-hosts.js'

describe('parseAllowedHosts (--allowed-hosts, SEARCH_LAYER_ALLOWED_HOSTS)', () => {
  it('takes a comma list, trimmed and lower-cased, keeping the leading dot of a domain', () => {
    expect(parseAllowedHosts(' Search.Example.com, .Corp.Internal ,10.0.0.5,[::2],fe80::1')).toEqual([
      'search.example.com',
      '.corp.internal',
      '10.0.0.5',
      '[::2]',
      '[fe80::1]',
    ])
  })

  it('reads its own output back unchanged, an empty list included (resolved settings are resolved again)', () => {
    for (const spec of ['search.lan,.corp.example,10.0.0.5,::1', 'all'])
      expect(parseAllowedHosts(parseAllowedHosts(spec))).toEqual(parseAllowedHosts(spec))
    expect(parseAllowedHosts([])).toEqual([])
  })

  it.each(['all', 'true', 'ALL', ' all '])('%j turns the check off', (spec) => {
    expect(parseAllowedHosts(spec)).toBe(true)
    expect(parseAllowedHosts([spec])).toBe(true)
  })

  it.each([
    ['', /holds no host names/],
    [' , ,', /holds no host names/],
    ['all,example.com', /"all" turns the check off and cannot be combined/],
    ['*.example.com', /write "\.example\.com" rather than "\*\.example\.com"/],
    ['search.lan, *.corp.lan', /write "\.corp\.lan" rather than "\*\.corp\.lan"/],
    ['example.com:8787', /"example\.com:8787" is not a host name or IP address; expected .*without scheme or port/],
    ['http://example.com', /"http:\/\/example\.com" is not a host name/],
    ['exa mple.com', /"exa mple\.com" is not a host name/],
    ['.', /"\." is not a host name/],
    ['.::1', /"\.::1" is not a host name/],
  ])('refuses %j saying what is allowed', (spec, message) => {
    expect(() => parseAllowedHosts(spec)).toThrow(message)
  })
})

describe('isLoopbackHost', () => {
  it.each(['localhost', 'LOCALHOST', 'localhost.', 'app.localhost', '127.0.0.1', '127.8.9.10', '[::1]'])(
    'accepts %s',
    (name) => expect(isLoopbackHost(name)).toBe(true),
  )
  it.each(['evil.example', 'localhost.evil.example', 'mylocalhost', '128.0.0.1', '10.0.0.1', '[::2]', '0.0.0.0'])(
    'refuses %s',
    (name) => expect(isLoopbackHost(name)).toBe(false),
  )
})

describe('hostnameOf', () => {
  it('drops the port and a trailing dot, lower-cases, and spells IP addresses the one way URLs do', () => {
    expect(hostnameOf('LocalHost.:8787')).toBe('localhost')
    expect(hostnameOf('[0:0:0:0:0:0:0:1]:80')).toBe('[::1]')
    expect(hostnameOf('0x7f.1')).toBe('127.0.0.1')
  })
  it.each(['', 'a b', 'user@evil.example', 'evil.example/x', 'evil.example?x'])('refuses %j', (authority) => {
    expect(hostnameOf(authority)).toBeUndefined()
  })
})

describe('matchesAllowedHost', () => {
  it('takes a leading-dot entry as the domain and its subdomains, a plain entry as itself only', () => {
    const entries = ['.example.com', 'search.corp']
    expect(matchesAllowedHost('example.com', entries)).toBe(true)
    expect(matchesAllowedHost('a.b.example.com', entries)).toBe(true)
    expect(matchesAllowedHost('badexample.com', entries)).toBe(false)
    expect(matchesAllowedHost('search.corp', entries)).toBe(true)
    expect(matchesAllowedHost('x.search.corp', entries)).toBe(false)
  })
})
