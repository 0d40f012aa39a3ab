/** The URL fields `canonicalUrl` reads; a WHATWG `URL` has all of them. */
export interface UrlParts {
  protocol: string
  hostname: string
  port: string
  pathname: string
  search: string
  hash: string
  href: string
}

// Most result URLs are plain `https://host/path?query`: for those, splitting the string by hand gives exactly the
// fields the WHATWG parser would, at a fraction of the cost of `new URL` (which dominated merging 10k results).
// Anything the WHATWG parser could rewrite — upper case or IDN hosts, IPv4-like hosts, ports, credentials, dot
// segments, backslashes, characters it percent-encodes, non-ASCII — is refused, and the caller uses `new URL`.
// Path: RFC 3986 unreserved, sub-delims, ":", "@", "/" and "%", all kept as they are by the parser. A special URL's
// query also takes "?" but not "'" (the parser encodes it there); a fragment takes both, and "#".
// Non-ASCII is percent-encoded as UTF-8, like the parser does.

/** Section bits, in `ALLOWED` and `SimpleUrlScan.nonAscii`. */
export const PATH = 1
export const QUERY = 2
export const FRAGMENT = 4

/** Per ASCII code, the sections it may appear in unchanged. */
const ALLOWED = new Uint8Array(128)
for (const c of 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.~!$&()*+,;=:@/%') {
  ALLOWED[c.charCodeAt(0)] = PATH | QUERY | FRAGMENT
}
ALLOWED["'".charCodeAt(0)] = PATH | FRAGMENT
ALLOWED['?'.charCodeAt(0)] = QUERY | FRAGMENT
ALLOWED['#'.charCodeAt(0)] = FRAGMENT

/**
 * Where the parts of a simple URL are: host `[https ? 8 : 7, hostEnd)`, path `[hostEnd, pathEnd)`, query with its
 * "?" `[pathEnd, queryEnd)`, fragment with its "#" `[queryEnd, length)`; each may be empty.
 */
export interface SimpleUrlScan {
  https: boolean
  hostEnd: number
  pathEnd: number
  queryEnd: number
  /** Section bits (`PATH`, `QUERY`, `FRAGMENT`) of the parts holding non-ASCII characters. */
  nonAscii: number
}

// One result object, overwritten by every scan: callers read it before scanning again, and a URL per result
// would otherwise be one more short-lived object each.
const scanned: SimpleUrlScan = { https: false, hostEnd: 0, pathEnd: 0, queryEnd: 0, nonAscii: 0 }

/**
 * One pass over a plain lower-case `http(s)://host/path?query#fragment`: where its parts are, or null when the
 * WHATWG parser might change any part of it. The result is overwritten by the next call. Never throws.
 */
export function scanSimpleUrl(text: string): SimpleUrlScan | null {
  const length = text.length
  // "http://" or "https://", lower case.
  if (
    text.charCodeAt(0) !== 104 ||
    text.charCodeAt(1) !== 116 ||
    text.charCodeAt(2) !== 116 ||
    text.charCodeAt(3) !== 112
  ) {
    return null
  }
  const https = text.charCodeAt(4) === 115
  let at = https ? 5 : 4
  if (text.charCodeAt(at) !== 58 || text.charCodeAt(at + 1) !== 47 || text.charCodeAt(at + 2) !== 47) return null
  at += 3
  const hostStart = at
  let label = at
  for (; at < length; at++) {
    const c = text.charCodeAt(at)
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) continue
    if (c === 45) {
      // Punycode ("xn--") labels get validated by the parser.
      if (
        at - hostStart >= 3 &&
        text.charCodeAt(at - 1) === 45 &&
        text.charCodeAt(at - 2) === 110 &&
        text.charCodeAt(at - 3) === 120
      ) {
        return null
      }
      continue
    }
    if (c !== 46 || at === label) break
    label = at + 1
  }
  // An empty label (or host), or a last label not starting with a letter: the parser may read it as IPv4.
  const first = text.charCodeAt(label)
  if (at === label || first < 97 || first > 122) return null
  const hostEnd = at
  let nonAscii = 0
  let c = text.charCodeAt(at)
  if (c === 47) {
    for (; at < length; at++) {
      c = text.charCodeAt(at)
      if (c < 128) {
        if (c === 63 || c === 35) break
        if ((ALLOWED[c]! & PATH) === 0) return null
        // Dot segments ("/./", "/../", "%2e") are resolved by the parser.
        if (c === 47 && text.charCodeAt(at + 1) === 46) return null
        if (c === 37 && text.charCodeAt(at + 1) === 50 && (text.charCodeAt(at + 2) | 32) === 101) return null
      } else {
        nonAscii |= PATH
        if (c >= 0xd800 && c <= 0xdfff) {
          if (!pairedSurrogate(text, at)) return null
          at++
        }
      }
    }
  } else if (at < length && c !== 63 && c !== 35) {
    // A port, credentials, a backslash or anything else after the host.
    return null
  }
  const pathEnd = at
  if (at < length && text.charCodeAt(at) === 63) {
    for (at++; at < length; at++) {
      c = text.charCodeAt(at)
      if (c < 128) {
        if (c === 35) break
        if ((ALLOWED[c]! & QUERY) === 0) return null
      } else {
        nonAscii |= QUERY
        if (c >= 0xd800 && c <= 0xdfff) {
          if (!pairedSurrogate(text, at)) return null
          at++
        }
      }
    }
  }
  const queryEnd = at
  // Anything left starts with "#".
  for (at++; at < length; at++) {
    c = text.charCodeAt(at)
    if (c < 128) {
      if ((ALLOWED[c]! & FRAGMENT) === 0) return null
    } else {
      nonAscii |= FRAGMENT
      if (c >= 0xd800 && c <= 0xdfff) {
        if (!pairedSurrogate(text, at)) return null
        at++
      }
    }
  }
  scanned.https = https
  scanned.hostEnd = hostEnd
  scanned.pathEnd = pathEnd
  scanned.queryEnd = queryEnd
  scanned.nonAscii = nonAscii
  return scanned
}

/** A lone surrogate, which the parser turns into U+FFFD and `encodeURI` refuses, is left to the parser. */
function pairedSurrogate(text: string, at: number): boolean {
  const c = text.charCodeAt(at)
  if (c > 0xdbff) return false
  const next = text.charCodeAt(at + 1)
  return next >= 0xdc00 && next <= 0xdfff
}

const NON_ASCII_RUN = /[^\x00-\x7f]+/g

/**
 * A part of a scanned URL with its non-ASCII characters percent-encoded as UTF-8, like the parser does. Every
 * ASCII character a scanned part holds but "%" is one `encodeURI` keeps; it runs natively, without a regex.
 */
export function encodeNonAscii(part: string): string {
  return part.indexOf('%') === -1 ? encodeURI(part) : part.replace(NON_ASCII_RUN, encodeURIComponent)
}

/**
 * Split a plain lower-case `http(s)://host/path?query#fragment` into the fields `new URL` would give, or null when
 * the WHATWG parser might change any part of it. Never throws.
 */
export function parseSimpleUrl(text: string): UrlParts | null {
  const scan = scanSimpleUrl(text)
  if (scan === null) return null
  const { https, hostEnd, pathEnd, queryEnd, nonAscii } = scan
  const hostname = text.slice(https ? 8 : 7, hostEnd)
  let path = pathEnd > hostEnd ? text.slice(hostEnd, pathEnd) : undefined
  let query = queryEnd > pathEnd ? text.slice(pathEnd, queryEnd) : undefined
  let fragment = queryEnd < text.length ? text.slice(queryEnd) : undefined
  let href = text
  if (nonAscii !== 0) {
    if (path !== undefined && (nonAscii & PATH) !== 0) path = encodeNonAscii(path)
    if (query !== undefined && (nonAscii & QUERY) !== 0) query = encodeNonAscii(query)
    if (fragment !== undefined && (nonAscii & FRAGMENT) !== 0) fragment = encodeNonAscii(fragment)
    href = `${text.slice(0, hostEnd)}${path ?? ''}${query ?? ''}${fragment ?? ''}`
  }
  return {
    protocol: https ? 'https:' : 'http:',
    hostname,
    port: '',
    pathname: path ?? '/',
    // URL#search and URL#hash read a lone "?" or "#" as "".
    search: query === undefined || query.length === 1 ? '' : query,
    hash: fragment === undefined || fragment.length === 1 ? '' : fragment,
    // The parser adds the root path when there is none.
    href: path === undefined ? `${https ? 'https' : 'http'}://${hostname}/${href.slice(hostEnd)}` : href,
  }
}
