import { isIPv4, isIPv6 } from 'node:net'

/** An IP address in canonical text form with its family. */
export interface HostLiteral {
  family: 4 | 6
  /** Dotted-quad for IPv4; lower-case, zone-less, fully expanded-then-compressed text for IPv6. */
  address: string
}

type Rule = { base: number[]; prefix: number; reason: string }

const V4_RULES: Rule[] = [
  { base: [0, 0, 0, 0], prefix: 32, reason: 'unspecified address' },
  { base: [0, 0, 0, 0], prefix: 8, reason: '"this network" address' },
  { base: [10, 0, 0, 0], prefix: 8, reason: 'private address' },
  { base: [100, 64, 0, 0], prefix: 10, reason: 'carrier-grade NAT address' },
  { base: [127, 0, 0, 0], prefix: 8, reason: 'loopback address' },
  { base: [169, 254, 0, 0], prefix: 16, reason: 'link-local address' },
  { base: [172, 16, 0, 0], prefix: 12, reason: 'private address' },
  { base: [192, 0, 0, 0], prefix: 24, reason: 'reserved address' },
  { base: [192, 0, 2, 0], prefix: 24, reason: 'documentation address' },
  { base: [192, 88, 99, 0], prefix: 24, reason: 'reserved address' },
  { base: [192, 168, 0, 0], prefix: 16, reason: 'private address' },
  { base: [198, 18, 0, 0], prefix: 15, reason: 'benchmarking address' },
  { base: [198, 51, 100, 0], prefix: 24, reason: 'documentation address' },
  { base: [203, 0, 113, 0], prefix: 24, reason: 'documentation address' },
  { base: [224, 0, 0, 0], prefix: 4, reason: 'multicast address' },
  { base: [255, 255, 255, 255], prefix: 32, reason: 'broadcast address' },
  { base: [240, 0, 0, 0], prefix: 4, reason: 'reserved address' },
]

// Only global unicast (2000::/3) can be public; inside it these are still not reachable hosts.
const V6_GLOBAL_RULES: Rule[] = [
  { base: [0x20, 0x01, 0x0d, 0xb8], prefix: 32, reason: 'documentation address' },
  { base: [0x20, 0x01, 0x00, 0x00], prefix: 23, reason: 'reserved address' },
  { base: [0x3f, 0xff, 0x00, 0x00], prefix: 20, reason: 'documentation address' },
]

function matches(bytes: readonly number[], rule: Rule): boolean {
  let bits = rule.prefix
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff
    if (((bytes[i] ?? 0) & mask) !== ((rule.base[i] ?? 0) & mask)) return false
  }
  return true
}

function parseV4Part(part: string): number | undefined {
  if (part === '') return undefined
  let radix = 10
  let digits = part
  if (/^0x/i.test(part)) {
    radix = 16
    digits = part.slice(2)
    // NOTE(whatwg): "0x" alone is a valid zero.
    if (digits === '') return 0
  } else if (part.length > 1 && part.startsWith('0')) {
    radix = 8
    digits = part.slice(1)
  }
  const pattern = radix === 16 ? /^[0-9a-f]+$/i : radix === 8 ? /^[0-7]+$/ : /^[0-9]+$/
  if (!pattern.test(digits)) return undefined
  const value = Number.parseInt(digits, radix)
  return Number.isSafeInteger(value) ? value : undefined
}

/** Parses legacy IPv4 spellings the way browsers and inet_aton do: `2130706433`, `0x7f.1`, `0177.0.0.1`, `127.1`. */
function parseV4Loose(input: string): number[] | undefined {
  const trimmed = input.endsWith('.') ? input.slice(0, -1) : input
  const parts = trimmed.split('.')
  if (parts.length === 0 || parts.length > 4) return undefined
  const values: number[] = []
  for (const part of parts) {
    const value = parseV4Part(part)
    if (value === undefined) return undefined
    values.push(value)
  }
  const last = values.pop() as number
  if (values.some((v) => v > 255)) return undefined
  const lastBytes = 4 - values.length
  if (last >= 256 ** lastBytes) return undefined
  const bytes = [...values]
  for (let i = lastBytes - 1; i >= 0; i--) bytes.push(Math.floor(last / 256 ** i) % 256)
  return bytes
}

function parseV6(input: string): number[] | undefined {
  const zoneless = input.split('%')[0] ?? ''
  if (!isIPv6(zoneless)) return undefined
  let text = zoneless.toLowerCase()
  const dotted = text.match(/:(\d+\.\d+\.\d+\.\d+)$/)
  if (dotted?.[1]) {
    const v4 = dotted[1].split('.').map(Number)
    text = `${text.slice(0, -dotted[1].length)}${((v4[0] ?? 0) * 256 + (v4[1] ?? 0)).toString(16)}:${((v4[2] ?? 0) * 256 + (v4[3] ?? 0)).toString(16)}`
  }
  const [head = '', rest] = text.split('::') as [string, string | undefined]
  const headGroups = head === '' ? [] : head.split(':')
  const restGroups = rest === undefined || rest === '' ? [] : rest.split(':')
  const fill = rest === undefined ? 0 : 8 - headGroups.length - restGroups.length
  const groups = [...headGroups, ...Array<string>(fill).fill('0'), ...restGroups]
  if (groups.length !== 8) return undefined
  const bytes: number[] = []
  for (const g of groups) {
    const n = Number.parseInt(g, 16)
    bytes.push(n >> 8, n & 0xff)
  }
  return bytes
}

function formatV6(bytes: readonly number[]): string {
  const groups: number[] = []
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i] ?? 0) << 8) | (bytes[i + 1] ?? 0))
  // RFC 5952: compress the longest run (>= 2) of zero groups, the first one on a tie.
  let bestStart = -1
  let bestLen = 0
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++
      continue
    }
    let j = i
    while (j < 8 && groups[j] === 0) j++
    if (j - i > bestLen && j - i >= 2) {
      bestStart = i
      bestLen = j - i
    }
    i = j
  }
  const hex = groups.map((g) => g.toString(16))
  if (bestStart < 0) return hex.join(':')
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLen).join(':')}`
}

/**
 * Parses a URL host or bare address as an IP literal: IPv4 in any legacy spelling (decimal, octal, hex,
 * short forms), or IPv6 with or without brackets and zone. Returns undefined for a DNS name. Never throws.
 */
export function parseHostLiteral(host: string): HostLiteral | undefined {
  if (typeof host !== 'string' || host.length === 0 || host.length > 300) return undefined
  const unbracketed = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host
  if (unbracketed.includes(':')) {
    const bytes = parseV6(unbracketed)
    return bytes ? { family: 6, address: formatV6(bytes) } : undefined
  }
  if (isIPv4(unbracketed)) return { family: 4, address: unbracketed }
  // A name whose last label is not numeric is a DNS name even if other labels look numeric (`1.2.3.com`).
  const bytes = parseV4Loose(unbracketed)
  return bytes ? { family: 4, address: bytes.join('.') } : undefined
}

function v4Reason(bytes: readonly number[]): string | undefined {
  for (const rule of V4_RULES) if (matches(bytes, rule)) return rule.reason
  return undefined
}

function v6Reason(bytes: readonly number[]): string | undefined {
  const allZero = (from: number, to: number) => bytes.slice(from, to).every((b) => b === 0)
  if (allZero(0, 16)) return 'unspecified address'
  if (allZero(0, 15) && bytes[15] === 1) return 'loopback address'
  // IPv4-mapped ::ffff:a.b.c.d: the kernel connects to the IPv4 address itself.
  if (allZero(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) {
    const inner = v4Reason(bytes.slice(12))
    return inner ? `IPv4-mapped ${inner}` : undefined
  }
  // IPv4-compatible ::a.b.c.d and IPv4-translated ::ffff:0:a.b.c.d are deprecated; nothing public lives there.
  if (allZero(0, 12) || (allZero(0, 8) && bytes[8] === 0xff && bytes[9] === 0xff && allZero(10, 12)))
    return 'reserved address'
  // NAT64 well-known prefix 64:ff9b::/96 (RFC 6052) reaches the embedded IPv4 address through a translator:
  // public embedded addresses are legitimate on IPv6-only networks, private ones are not.
  if (bytes[0] === 0 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b) {
    if (allZero(4, 12)) {
      const inner = v4Reason(bytes.slice(12))
      return inner ? `NAT64 ${inner}` : undefined
    }
    // 64:ff9b:1::/48 is the local-use NAT64 prefix (RFC 8215).
    return 'private NAT64 address'
  }
  if (bytes[0] === 0xff) return 'multicast address'
  if (((bytes[0] ?? 0) & 0xfe) === 0xfc) return 'private address'
  if (bytes[0] === 0xfe && ((bytes[1] ?? 0) & 0xc0) === 0x80) return 'link-local address'
  if (bytes[0] === 0xfe && ((bytes[1] ?? 0) & 0xc0) === 0xc0) return 'site-local address'
  if (((bytes[0] ?? 0) & 0xe0) !== 0x20) return 'reserved address'
  // 6to4 2002::/16 embeds the IPv4 address of the relay-reached host in bytes 2..5.
  if (bytes[0] === 0x20 && bytes[1] === 0x02) {
    const inner = v4Reason(bytes.slice(2, 6))
    return inner ? `6to4 ${inner}` : undefined
  }
  for (const rule of V6_GLOBAL_RULES) if (matches(bytes, rule)) return rule.reason
  return undefined
}

/**
 * Why an address must not be fetched (`"loopback address"`, `"private address"`…), or undefined when it is
 * a public unicast address. Anything that does not parse as an IP address is reported as invalid.
 */
export function blockedAddressReason(ip: string): string | undefined {
  const literal = parseHostLiteral(ip)
  if (!literal) return 'invalid address'
  if (literal.family === 4) return v4Reason(literal.address.split('.').map(Number))
  return v6Reason(parseV6(literal.address) ?? [])
}

/** True when fetching from this IP address could reach a loopback, private, link-local or otherwise non-public host. */
export function isBlockedAddress(ip: string): boolean {
  return blockedAddressReason(ip) !== undefined
}
