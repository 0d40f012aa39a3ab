import trackingParams from '../../../references/tracking-params.json'
import {
  encodeNonAscii,
  FRAGMENT,
  PATH,
  parseSimpleUrl,
  QUERY,
  type SimpleUrlScan,
  scanSimpleUrl,
  type UrlParts,
} from './_simple-url.js'

// The policy behind every rule below, and each test vector we deliberately differ on, is in
// references/url-policy.md. The key is for deduplication only: callers keep the original URL for display.

const TRACKING_NAMES = new Set(trackingParams.names.map((name) => name.toLowerCase()))
const TRACKING_PREFIXES = trackingParams.prefixes.map((prefix) => prefix.toLowerCase())

/** Host prefixes that serve the same page as the bare host (mobile and AMP mirrors, `www`). */
const MIRROR_PREFIXES = ['www.', 'm.', 'mobile.', 'amp.']

/** A scheme-less string that starts like a host name ("example.com/x", "www.example.com"). */
const HOST_LIKE = /^[^\s/?#:@.]+(?:\.[^\s/?#:@.]+)+\.?(?::\d+)?(?:[/?#]|$)/

/** A key no real URL can collide with: serialised URLs never contain a space. */
const INVALID_PREFIX = '(invalid) '

/**
 * The deduplication key of a URL: scheme and `www.`/`m.`/`amp.` folded, fragment, default port, tracking
 * parameters and trailing slash dropped, query sorted. Never throws; a non-URL string gets a stable key of its own.
 */
export function canonicalUrl(url: string): string {
  const text = typeof url === 'string' ? url : String(url ?? '')
  const trimmed = text.trim()
  const scan = scanSimpleUrl(trimmed)
  if (scan !== null) {
    const key = simpleKey(trimmed, scan)
    if (key !== null) return key
  }
  const parsed = parseSimpleUrl(trimmed) ?? parseLoose(trimmed)
  if (parsed === null) return INVALID_PREFIX + trimmed.replace(/\s+/g, ' ')
  try {
    return canonicalize(parsed, 0)
  } catch {
    // canonicalize only uses non-throwing steps, but a dedup key must never take the caller down.
    return withoutHash(parsed)
  }
}

function parseLoose(text: string): URL | null {
  if (text === '') return null
  const direct = tryParse(text)
  // "example.com:8080/x" parses as scheme "example.com:"; a real scheme never contains a dot.
  if (direct !== null && !direct.protocol.slice(0, -1).includes('.')) return direct
  // http, not https: an explicit ":80" on a scheme-less URL then stays a default port.
  if (text.startsWith('//')) return tryParse(`http:${text}`)
  if (HOST_LIKE.test(text)) return tryParse(`http://${text}`)
  return direct
}

function tryParse(text: string): URL | null {
  try {
    return new URL(text)
  } catch {
    return null
  }
}

function canonicalize(url: UrlParts, depth: number): string {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return withoutHash(url)

  const host = foldHost(url.hostname)
  const path = foldPath(url.pathname)

  const embedded = depth === 0 ? ampCacheTarget(host, path) : null
  if (embedded !== null) {
    const target = parseSimpleUrl(embedded) ?? tryParse(embedded)
    if (target !== null) return canonicalize(target, depth + 1)
  }

  const port = url.port === '' ? '' : `:${url.port}`
  const query = foldQuery(url.search)
  const hash = keepHash(url.hash)
  const built = `https://${host}${port}${path}${query === '' ? '' : `?${query}`}${hash}`
  // Every step above keeps the parser's own serialisation except two: an http URL on port 443 (https's default
  // port) and a folded host that now ends in a number, which WHATWG parses as IPv4 ("foo.09.." → "foo.09" is
  // invalid). Re-serialising only then halves the cost; the WHATWG idempotence tests guard this.
  const endsInNumber = host !== url.hostname && /(?:^|\.)(?:\d+|0x[0-9a-f]*)$/i.test(host)
  if (url.port !== '443' && !endsInNumber) return built
  const reparsed = tryParse(built)
  return reparsed === null ? withoutHash(url) : reparsed.href
}

/**
 * `canonicalize(parseSimpleUrl(text), 0)` read straight off a scan, without the intermediate parts; null for an
 * AMP cache URL, whose embedded target takes the general path.
 */
function simpleKey(text: string, scan: SimpleUrlScan): string | null {
  const { https, hostEnd, pathEnd, queryEnd, nonAscii } = scan
  const hostname = text.slice(https ? 8 : 7, hostEnd)
  const host = foldHost(hostname)
  let path = '/'
  if (pathEnd > hostEnd) {
    path = text.slice(hostEnd, pathEnd)
    if ((nonAscii & PATH) !== 0) path = encodeNonAscii(path)
    path = foldPath(path)
  }
  if (ampCacheTarget(host, path) !== null) return null
  let query = ''
  if (queryEnd - pathEnd > 1) {
    let search = text.slice(pathEnd, queryEnd)
    if ((nonAscii & QUERY) !== 0) search = encodeNonAscii(search)
    query = foldQuery(search)
  }
  let hash = ''
  if (text.length - queryEnd >= 2) {
    const c = text.charCodeAt(queryEnd + 1)
    if (c === 33 || c === 47) {
      const fragment = text.slice(queryEnd)
      hash = normalizePercent((nonAscii & FRAGMENT) !== 0 ? encodeNonAscii(fragment) : fragment)
    }
  }
  // No port, and the folded host still ends in the scanned last label, which starts with a letter: never the
  // cases canonicalize has to re-serialise.
  return query === '' ? `https://${host}${path}${hash}` : `https://${host}${path}?${query}${hash}`
}

function withoutHash(url: UrlParts): string {
  const hash = keepHash(url.hash)
  const href = url.hash === '' ? url.href : url.href.slice(0, -url.hash.length)
  // An opaque path loses its trailing spaces once the fragment is gone ("x:a  #b" → "x:a").
  return hash === '' ? href.trimEnd() : href + hash
}

/** Hash-bang and hash-router fragments (`#!/a`, `#/a`) select a different page in single-page apps. */
function keepHash(hash: string): string {
  return hash.startsWith('#!') || hash.startsWith('#/') ? normalizePercent(hash) : ''
}

function foldHost(hostname: string): string {
  let host = hostname
  if (host.endsWith('.') && !host.startsWith('[')) host = host.replace(/\.+$/, '') || hostname
  // w, m, a: every mirror prefix starts with one of them.
  const first = host.charCodeAt(0)
  if (first !== 119 && first !== 109 && first !== 97) return host
  // Strip mirror prefixes, but never down to a single label ("www.com" stays).
  for (let changed = true; changed; ) {
    changed = false
    for (const prefix of MIRROR_PREFIXES) {
      if (!host.startsWith(prefix)) continue
      const rest = host.slice(prefix.length)
      if (rest.includes('.')) {
        host = rest
        changed = true
      }
    }
  }
  return host
}

const DOUBLE_SLASH = /(?<!\b[a-z][a-z\d+\-.]{1,50}:)\/{2,}/gi
const ENCODED_SPACE = /%20/g
const PLUS = /\+/g

function foldPath(pathname: string): string {
  let path = normalizePercent(pathname)
  // Collapse "//" but keep the "scheme://" of a URL embedded in a path (web.archive.org/web/2020/https://…).
  if (path.includes('//')) path = path.replace(DOUBLE_SLASH, '/')
  // A trailing "/amp" or "/amp/", in any case, folds to "/"; then trailing slashes go. By char code, so at most
  // one slice and no regex.
  let end = path.length
  const tail = path.charCodeAt(end - 1) === 47 ? end - 1 : end
  if (
    tail >= 4 &&
    path.charCodeAt(tail - 4) === 47 &&
    (path.charCodeAt(tail - 3) | 32) === 97 &&
    (path.charCodeAt(tail - 2) | 32) === 109 &&
    (path.charCodeAt(tail - 1) | 32) === 112
  ) {
    end = tail - 3
  }
  while (end > 1 && path.charCodeAt(end - 1) === 47) end--
  if (end < path.length) path = path.slice(0, end)
  return path === '' ? '/' : path
}

/** Google's AMP viewer and the AMP CDN wrap the real page: `google.com/amp/s/example.com/a`. */
function ampCacheTarget(host: string, path: string): string | null {
  if (!path.startsWith('/amp/') && !path.startsWith('/c/') && !path.startsWith('/v/')) return null
  const google = /^(?:[a-z]+\.)?google\.[a-z.]+$/.test(host) ? /^\/amp\/(s\/)?(.+)$/i.exec(path) : null
  if (google?.[2] !== undefined) return `${google[1] === undefined ? 'http' : 'https'}://${google[2]}`
  const cdn = host.endsWith('.cdn.ampproject.org') ? /^\/[cv]\/(?:s\/)?(.+)$/i.exec(path) : null
  if (cdn?.[1] !== undefined) return `https://${cdn[1]}`
  return null
}

function foldQuery(search: string): string {
  if (search.length <= 1) return ''
  // Parallel arrays, insertion-sorted by name as they come (stable, and there are rarely more than a few):
  // no pair objects, no split array, no join for the usual one or two parameters.
  const names: string[] = []
  const parts: string[] = []
  for (let from = 1; from <= search.length; ) {
    let to = search.indexOf('&', from)
    if (to === -1) to = search.length
    const raw = search.slice(from, to)
    from = to + 1
    if (raw === '') continue
    // In a query string "+" and "%20" both mean a space (application/x-www-form-urlencoded).
    // "a=" and "a" both read as a="" to every form parser.
    let part = normalizePercent(raw)
    if (part.includes('%20')) part = part.replace(ENCODED_SPACE, '+')
    let eq = part.indexOf('=')
    if (eq === part.length - 1) {
      part = part.slice(0, -1)
      eq = -1
    }
    if (part === '') continue
    const name = eq === -1 ? part : part.slice(0, eq)
    const lowered = (name.includes('%') || name.includes('+') ? safeDecode(name) : name).toLowerCase()
    if (isTracking(lowered)) continue
    if (lowered === 'amp') continue
    // Stable sort by name only: the order of repeated values (`?a=2&a=1`) can matter to the server.
    let at = names.length
    while (at > 0 && names[at - 1]! > name) {
      names[at] = names[at - 1]!
      parts[at] = parts[at - 1]!
      at--
    }
    names[at] = name
    parts[at] = part
  }
  if (parts.length === 0) return ''
  return parts.length === 1 ? parts[0]! : parts.join('&')
}

function isTracking(name: string): boolean {
  if (TRACKING_NAMES.has(name)) return true
  for (const prefix of TRACKING_PREFIXES) if (name.startsWith(prefix)) return true
  return false
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(PLUS, ' '))
  } catch {
    return text
  }
}

/** Decode %XX of unreserved characters and upper-case the hex of every other escape (RFC 3986 §6.2.2). */
function normalizePercent(text: string): string {
  let at = text.indexOf('%')
  if (at === -1) return text
  // Escapes are usually canonical already (upper-case hex of reserved or non-ASCII bytes): copy only on change.
  let out = ''
  let from = 0
  for (; at !== -1 && at + 2 < text.length; at = text.indexOf('%', at + 1)) {
    const high = text.charCodeAt(at + 1)
    const low = text.charCodeAt(at + 2)
    const code = hexValue(high) * 16 + hexValue(low)
    if (!(code >= 0)) continue
    let replacement: string
    if (isUnreserved(code)) replacement = String.fromCharCode(code)
    else if (!isLowerHex(high) && !isLowerHex(low)) {
      at += 2
      continue
    } else replacement = `%${text.slice(at + 1, at + 3).toUpperCase()}`
    out += text.slice(from, at) + replacement
    from = at + 3
    at += 2
  }
  return from === 0 ? text : out + text.slice(from)
}

/** 0–15 for a hex digit, else NaN (so a sum with it is NaN too). */
function hexValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 48
  if (code >= 65 && code <= 70) return code - 55
  if (code >= 97 && code <= 102) return code - 87
  return Number.NaN
}

function isLowerHex(code: number): boolean {
  return code >= 97 && code <= 102
}

/** RFC 3986 unreserved: percent-encoding these never changes what the URL points at. */
function isUnreserved(code: number): boolean {
  return (
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    (code >= 48 && code <= 57) ||
    code === 45 ||
    code === 46 ||
    code === 95 ||
    code === 126
  )
}
