import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { blockedAddressReason, isBlockedAddress, parseHostLiteral } from './index.js'

describe('parseHostLiteral', () => {
  it.each([
    ['127.0.0.1', 4, '127.0.0.1'],
    ['2130706433', 4, '127.0.0.1'],
    ['0x7f000001', 4, '127.0.0.1'],
    ['0x7f.1', 4, '127.0.0.1'],
    ['0177.0.0.1', 4, '127.0.0.1'],
    ['0177.1', 4, '127.0.0.1'],
    ['127.1', 4, '127.0.0.1'],
    ['127.0.1', 4, '127.0.0.1'],
    ['10.1', 4, '10.0.0.1'],
    ['0', 4, '0.0.0.0'],
    ['0x', 4, '0.0.0.0'],
    ['169.254.169.254.', 4, '169.254.169.254'],
    ['0xA9.0xFE.0xA9.0xFE', 4, '169.254.169.254'],
    ['2852039166', 4, '169.254.169.254'],
    ['[::1]', 6, '::1'],
    ['::1', 6, '::1'],
    ['[0:0:0:0:0:0:0:1]', 6, '::1'],
    ['[::ffff:127.0.0.1]', 6, '::ffff:7f00:1'],
    ['[::FFFF:7F00:1]', 6, '::ffff:7f00:1'],
    ['fe80::1%eth0', 6, 'fe80::1'],
    ['2001:db8:0:0:1:0:0:1', 6, '2001:db8::1:0:0:1'],
    ['2606:4700:4700::1111', 6, '2606:4700:4700::1111'],
  ] as const)('%s is IPv%i %s', (host, family, address) => {
    expect(parseHostLiteral(host)).toEqual({ family, address })
  })

  it.each([
    'example.com',
    'localhost',
    '1.2.3.com',
    '256.1.1.1',
    '1.2.3.4.5',
    '0x1g.0.0.1',
    '08.0.0.1',
    '4294967296',
    '',
    '[example.com]',
    '::g',
    '1..2',
  ])('%j is not an IP literal', (host) => {
    expect(parseHostLiteral(host)).toBeUndefined()
  })

  it('agrees with WHATWG URL parsing on every legacy IPv4 spelling of an address', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 0xffffffff }),
        fc.constantFrom('dec', 'hex', 'oct', 'short'),
        (n, style) => {
          const bytes = [n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff]
          const spelled =
            style === 'dec'
              ? String(n)
              : style === 'hex'
                ? `0x${n.toString(16)}`
                : style === 'oct'
                  ? bytes.map((b) => `0${b.toString(8)}`).join('.')
                  : `${bytes[0]}.${(n & 0xffffff) >>> 0}`
          const expected = bytes.join('.')
          expect(parseHostLiteral(spelled)?.address).toBe(expected)
          expect(new URL(`http://${spelled}/`).hostname).toBe(expected)
        },
      ),
    )
  })

  it('never throws and is idempotent on its own output', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.ipV4(), fc.ipV6(), fc.ipV4Extended()), (input) => {
        const once = parseHostLiteral(input)
        if (once) expect(parseHostLiteral(once.address)).toEqual(once)
      }),
    )
  })

  it('canonicalises IPv6 the same way as WHATWG URL', () => {
    fc.assert(
      fc.property(fc.ipV6(), (ip) => {
        expect(`[${parseHostLiteral(ip)?.address}]`).toBe(new URL(`http://[${ip}]/`).hostname)
      }),
    )
  })
})

describe('isBlockedAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback address'],
    ['127.255.255.254', 'loopback address'],
    ['10.0.0.1', 'private address'],
    ['172.16.0.1', 'private address'],
    ['172.31.255.255', 'private address'],
    ['192.168.1.1', 'private address'],
    ['169.254.169.254', 'link-local address'],
    ['100.64.0.1', 'carrier-grade NAT address'],
    ['100.127.255.255', 'carrier-grade NAT address'],
    ['0.0.0.0', 'unspecified address'],
    ['0.1.2.3', '"this network" address'],
    ['224.0.0.1', 'multicast address'],
    ['239.255.255.250', 'multicast address'],
    ['255.255.255.255', 'broadcast address'],
    ['240.0.0.1', 'reserved address'],
    ['192.0.0.8', 'reserved address'],
    ['192.0.2.1', 'documentation address'],
    ['198.18.0.1', 'benchmarking address'],
    ['198.19.255.255', 'benchmarking address'],
    ['203.0.113.9', 'documentation address'],
    ['::1', 'loopback address'],
    ['::', 'unspecified address'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback address'],
    ['::ffff:169.254.169.254', 'IPv4-mapped link-local address'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private address'],
    ['::127.0.0.1', 'reserved address'],
    ['64:ff9b::127.0.0.1', 'NAT64 loopback address'],
    ['64:ff9b::a9fe:a9fe', 'NAT64 link-local address'],
    ['64:ff9b:1::1', 'private NAT64 address'],
    ['fc00::1', 'private address'],
    ['fd12:3456:789a::1', 'private address'],
    ['fe80::1', 'link-local address'],
    ['febf::1', 'link-local address'],
    ['fec0::1', 'site-local address'],
    ['ff02::1', 'multicast address'],
    ['100::1', 'reserved address'],
    ['2001:db8::1', 'documentation address'],
    ['2001::1', 'reserved address'],
    ['2002:7f00:1::', '6to4 loopback address'],
    ['2002:c0a8:101::1', '6to4 private address'],
    ['3fff::1', 'documentation address'],
    ['not-an-ip', 'invalid address'],
  ])('%s is blocked as a %s', (ip, reason) => {
    expect(blockedAddressReason(ip)).toBe(reason)
    expect(isBlockedAddress(ip)).toBe(true)
  })

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.215.14',
    '172.15.255.255',
    '172.32.0.0',
    '100.63.255.255',
    '100.128.0.0',
    '198.17.255.255',
    '198.20.0.0',
    '223.255.255.255',
    '2606:4700:4700::1111',
    '2a00:1450:4001:82a::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::8.8.8.8',
    '2002:808:808::1',
  ])('%s is a public address', (ip) => {
    expect(blockedAddressReason(ip)).toBeUndefined()
    expect(isBlockedAddress(ip)).toBe(false)
  })

  it('treats an IPv4-mapped address exactly like the IPv4 address', () => {
    fc.assert(
      fc.property(fc.ipV4(), (ip) => {
        expect(isBlockedAddress(`::ffff:${ip}`)).toBe(isBlockedAddress(ip))
      }),
    )
  })
})
