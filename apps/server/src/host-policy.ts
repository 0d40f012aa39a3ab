import {
  type AllowedHosts,
  authorityOf,
  hostnameOf,
  isIpLiteral,
  isLoopbackHost,
  matchesAllowedHost,
} from './allowed-hosts.js'

/** Which `Host` and `Origin` values the server accepts. */
export interface HostPolicy {
  /** Whether the `Host` header is checked at all (see `createHostPolicy`). */
  readonly checksHost: boolean
  /** Whether a request addressed to `hostname` (from `hostnameOf`) is served. */
  allowsHost(hostname: string): boolean
  /** Whether a browser page at `origin` may call the server reached as `host` (the request's `Host`). */
  allowsOrigin(origin: string, host: string): boolean
  /** The host names accepted, in words, for refusal messages. */
  readonly described: string
}

/** What the policy depends on. */
export interface HostPolicyOptions {
  /** The interface the server binds (`host` setting). */
  bindHost: string
  allowedHosts: AllowedHosts
  authEnabled: boolean
}

const LOOPBACK_WORDS = 'localhost, *.localhost, 127.0.0.0/8 and [::1]'

// Without keys, or with an explicit list, the Host header is the defence against DNS rebinding: a rebound page
// reaches us under the attacker's name. A server beyond loopback with keys needs no check (a bearer key is never
// sent by a browser on its own), and must keep working behind proxies and load balancers that use any name.
function hostCheckApplies({ bindHost, allowedHosts, authEnabled }: HostPolicyOptions): boolean {
  if (allowedHosts === true) return false
  return isLoopbackHost(bindHost) || allowedHosts.length > 0 || !authEnabled
}

function acceptedHosts({ bindHost, allowedHosts }: HostPolicyOptions): (hostname: string) => boolean {
  const listed = allowedHosts === true ? [] : allowedHosts
  if (isLoopbackHost(bindHost)) return (h) => isLoopbackHost(h) || matchesAllowedHost(h, listed)
  // Bound to an interface others reach: they may use any of its addresses (an IP literal cannot be rebound), or
  // the name it was bound by.
  const bound = hostnameOf(bindHost.includes(':') ? `[${bindHost}]` : bindHost)
  const names = bound && !isIpLiteral(bound) ? [...listed, bound] : listed
  return (h) => isLoopbackHost(h) || isIpLiteral(h) || matchesAllowedHost(h, names)
}

function acceptedInWords(options: HostPolicyOptions): string {
  const listed = options.allowedHosts === true ? [] : options.allowedHosts
  const extra = isLoopbackHost(options.bindHost) ? '' : ', IP addresses'
  return `${LOOPBACK_WORDS}${extra}${listed.length ? `, ${listed.join(', ')}` : ''}`
}

// Pages served from loopback run on this machine and are trusted as Vite trusts them; any other page must be
// the one the request is addressed to, or named in the allowed hosts. IP addresses are never implied here: an
// attacker can serve a page from one.
function originCheck(options: HostPolicyOptions): HostPolicy['allowsOrigin'] {
  const listed = options.allowedHosts === true ? [] : options.allowedHosts
  return (origin, host) => {
    let url: URL
    try {
      url = new URL(origin)
    } catch {
      return false
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return false
    if (url.host === authorityOf(host)) return true
    const hostname = url.hostname.replace(/\.$/, '')
    return isLoopbackHost(hostname) || matchesAllowedHost(hostname, listed)
  }
}

/**
 * The Host and Origin policy of a server bound to `bindHost`. The Host check applies when bound to loopback
 * (loopback names plus `allowedHosts`), and beyond loopback when auth is off or `allowedHosts` is a list (then
 * IP addresses and the bound name are accepted too); `allowedHosts: true` turns it off. Origins are always checked.
 */
export function createHostPolicy(options: HostPolicyOptions): HostPolicy {
  return {
    checksHost: hostCheckApplies(options),
    allowsHost: acceptedHosts(options),
    allowsOrigin: originCheck(options),
    described: acceptedInWords(options),
  }
}
