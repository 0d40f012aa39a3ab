import { isIP } from 'node:net'

const HOST_NAME =
  /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$/

/**
 * An IP address (IPv6 zone allowed) or a DNS host name, without scheme or port. Checked before listening:
 * "http://host", "host:port" or a blank would otherwise surface as a DNS error.
 */
export function isHostOrAddress(host: string): boolean {
  return isIP(host.replace(/%[\w.-]+$/, '')) !== 0 || HOST_NAME.test(host)
}

/** Host names the server answers to beyond loopback; `true` turns the Host check off. */
export type AllowedHosts = readonly string[] | true

const ALLOWED_FORMS =
  'expected a comma list of host names or IP addresses without scheme or port (".example.com" for the domain and its subdomains), or "all" to turn the check off'

/** The host name of a `Host` header or URL authority, lower case, without port or trailing dot; IPv6 in brackets. */
export function hostnameOf(authority: string): string | undefined {
  try {
    const url = new URL(`http://${authority}`)
    if (url.username || url.password || url.pathname !== '/' || url.search || url.hash) return undefined
    return url.hostname.replace(/\.$/, '')
  } catch {
    return undefined
  }
}

/** The `host:port` of a `Host` header as a URL spells it (lower case, default port dropped), to compare with an Origin. */
export function authorityOf(host: string): string | undefined {
  try {
    return new URL(`http://${host}`).host
  } catch {
    return undefined
  }
}

/** `localhost`, `*.localhost`, 127.0.0.0/8 and `[::1]`: names only this machine can answer to. */
export function isLoopbackHost(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '')
  return (
    name === 'localhost' ||
    name.endsWith('.localhost') ||
    name === '[::1]' ||
    name === '::1' ||
    (isIP(name) === 4 && name.startsWith('127.'))
  )
}

/** Whether `hostname` (from `hostnameOf`) is an IP literal: no DNS name, so no DNS rebinding through it. */
export const isIpLiteral = (hostname: string): boolean => isIP(hostname.replace(/^\[|\]$/g, '')) !== 0

// One entry, normalised like hostnameOf's output so the check compares equal strings; a leading dot is kept.
function normaliseEntry(entry: string): string {
  const domain = entry.startsWith('.')
  const bare = domain ? entry.slice(1) : entry
  const unbracketed = bare.replace(/^\[(.*)\]$/, '$1')
  const valid = isIP(unbracketed) === 6 ? !domain : HOST_NAME.test(bare) && !bare.endsWith('.')
  const hostname = valid ? hostnameOf(isIP(unbracketed) === 6 ? `[${unbracketed}]` : bare) : undefined
  if (!hostname) throw new Error(`${JSON.stringify(entry)} is not a host name or IP address; ${ALLOWED_FORMS}`)
  return domain ? `.${hostname}` : hostname
}

/**
 * Parses `--allowed-hosts` / `SEARCH_LAYER_ALLOWED_HOSTS`: a comma list (or the entries as an array) of host names
 * and IP addresses, `.example.com` standing for the domain and its subdomains, or `all`/`true` alone for no check.
 * Throws an `Error` whose message says what is wrong and what is allowed (the caller names the setting).
 */
export function parseAllowedHosts(spec: string | readonly string[] | true): AllowedHosts {
  if (spec === true) return true
  // An empty array is the resolved "none" handed back in (startServer re-resolves serverOptionsFromEnv's output);
  // a blank value typed by the user is the one refused below.
  if (Array.isArray(spec) && spec.length === 0) return []
  const entries = (typeof spec === 'string' ? spec.split(',') : spec).map((e) => e.trim().toLowerCase())
  const named = entries.filter(Boolean)
  if (named.length === 0) throw new Error(`holds no host names (got ${JSON.stringify(spec)}); ${ALLOWED_FORMS}`)
  if (named.some((e) => e === 'all' || e === 'true')) {
    if (named.length === 1) return true
    throw new Error(`"all" turns the check off and cannot be combined with host names; ${ALLOWED_FORMS}`)
  }
  const wildcard = named.find((e) => e.startsWith('*'))
  if (wildcard !== undefined) {
    const domain = `.${wildcard.replace(/^\*+\.?/, '')}`
    throw new Error(`write "${domain}" rather than "${wildcard}" for a domain and its subdomains`)
  }
  return [...new Set(named.map(normaliseEntry))]
}

/** Whether `hostname` is one of `entries`, or under one of their `.domain` forms. */
export function matchesAllowedHost(hostname: string, entries: readonly string[]): boolean {
  return entries.some((entry) =>
    entry.startsWith('.') ? hostname === entry.slice(1) || hostname.endsWith(entry) : hostname === entry,
  )
}
