import { describe, expect, it } from 'vitest'
import type { AllowedHosts } from './allowed-hosts.js'
import { createHostPolicy } from './host-policy.js'

const loopback = createHostPolicy({ bindHost: '127.0.0.1', allowedHosts: [], authEnabled: false })

describe('createHostPolicy: the Host check', () => {
  it.each<[string, AllowedHosts, boolean, boolean]>([
    ['127.0.0.1', [], false, true],
    ['::1', [], true, true],
    ['localhost', [], true, true],
    ['0.0.0.0', [], false, true],
    ['0.0.0.0', [], true, false],
    ['0.0.0.0', ['search.lan'], true, true],
    ['10.0.0.5', [], true, false],
    ['127.0.0.1', true, false, false],
    ['0.0.0.0', true, false, false],
  ])('bound to %s, allowed %j, auth %s: checked %s', (bindHost, allowedHosts, authEnabled, checked) => {
    expect(createHostPolicy({ bindHost, allowedHosts, authEnabled }).checksHost).toBe(checked)
  })

  it('bound to loopback: only loopback names and the listed ones', () => {
    const policy = createHostPolicy({ bindHost: '127.0.0.1', allowedHosts: ['.corp.example'], authEnabled: false })
    for (const ok of [
      'localhost',
      'app.localhost',
      '127.0.0.1',
      '127.1.2.3',
      '[::1]',
      'corp.example',
      'a.corp.example',
    ])
      expect(policy.allowsHost(ok), ok).toBe(true)
    for (const no of ['evil.example', '10.0.0.5', '[::2]', 'localhost.evil.example', 'corp.example.evil'])
      expect(policy.allowsHost(no), no).toBe(false)
  })

  it('bound beyond loopback: also any IP address and the name it was bound by, never another name', () => {
    const policy = createHostPolicy({ bindHost: 'api.internal', allowedHosts: ['search.lan'], authEnabled: false })
    for (const ok of ['localhost', '10.0.0.5', '[fe80::1]', 'api.internal', 'search.lan'])
      expect(policy.allowsHost(ok), ok).toBe(true)
    expect(policy.allowsHost('evil.example')).toBe(false)
    expect(policy.described).toBe('localhost, *.localhost, 127.0.0.0/8 and [::1], IP addresses, search.lan')
  })
})

describe('createHostPolicy: the Origin check', () => {
  it('accepts the origin the request is addressed to, whatever the scheme (TLS may end at a proxy)', () => {
    const policy = createHostPolicy({ bindHost: '0.0.0.0', allowedHosts: true, authEnabled: true })
    expect(policy.allowsOrigin('https://search.example.com', 'Search.Example.com')).toBe(true)
    expect(policy.allowsOrigin('http://search.example.com:8080', 'search.example.com:8080')).toBe(true)
    expect(policy.allowsOrigin('http://search.example.com:8080', 'search.example.com')).toBe(false)
  })

  it('accepts loopback pages and listed hosts, never another site, an IP page, null or another scheme', () => {
    const policy = createHostPolicy({ bindHost: '0.0.0.0', allowedHosts: ['.corp.example'], authEnabled: false })
    expect(policy.allowsOrigin('http://localhost:5173', '10.0.0.5:8787')).toBe(true)
    expect(policy.allowsOrigin('http://127.0.0.1:3000', '10.0.0.5:8787')).toBe(true)
    expect(policy.allowsOrigin('https://app.corp.example', '10.0.0.5:8787')).toBe(true)
    for (const origin of [
      'https://evil.example',
      'http://203.0.113.7',
      'null',
      'file://',
      'chrome-extension://abc',
      '',
    ])
      expect(policy.allowsOrigin(origin, '10.0.0.5:8787'), origin).toBe(false)
  })

  it('with the Host check off ("all"), still refuses other sites', () => {
    const policy = createHostPolicy({ bindHost: '127.0.0.1', allowedHosts: true, authEnabled: false })
    expect(policy.allowsOrigin('https://evil.example', '127.0.0.1:8787')).toBe(false)
    expect(loopback.allowsOrigin('http://127.0.0.1:8787', '127.0.0.1:8787')).toBe(true)
  })
})
