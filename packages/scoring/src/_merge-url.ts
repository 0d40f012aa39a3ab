import tracking from '../../../references/tracking-params.json'
import { byRankThenProvider, cmp, type Occurrences, type Urls } from './_merge-occurrences.js'

const TRACKING_NAMES = new Set(tracking.names.map((n) => n.toLowerCase()))
const TRACKING_PREFIXES = tracking.prefixes.map((p) => p.toLowerCase())
const MIRROR_HOST = /^[a-z]+:\/\/(?:www\.)?(?:m|mobile|amp)\./
const AMP_PATH = /\/amp\/?(?:[?#]|$)|[?&]amp(?:=|&|#|$)/
const MIRROR_HOST_ANY_CASE = new RegExp(MIRROR_HOST.source, 'i')
const AMP_PATH_ANY_CASE = new RegExp(AMP_PATH.source, 'i')

/**
 * A variant carrying click-tracking parameters is a worse URL to show, even though it is the same page. Pairs
 * are split on "&" and "#" after the first "?".
 */
export function hasTracking(url: string): boolean {
  const query = url.indexOf('?')
  if (query === -1) return false
  for (let from = query + 1; from < url.length; ) {
    let to = from
    let eq = -1
    for (; to < url.length; to++) {
      const c = url.charCodeAt(to)
      if (c === 38 || c === 35) break
      if (c === 61 && eq === -1) eq = to
    }
    const name = url.slice(from, eq === -1 ? to : eq).toLowerCase()
    if (TRACKING_NAMES.has(name)) return true
    for (const prefix of TRACKING_PREFIXES) if (name.startsWith(prefix)) return true
    from = to + 1
  }
  return false
}

/** `^https:`, in any case. */
function isHttps(url: string): boolean {
  return (
    (url.charCodeAt(0) | 32) === 104 &&
    (url.charCodeAt(1) | 32) === 116 &&
    (url.charCodeAt(2) | 32) === 116 &&
    (url.charCodeAt(3) | 32) === 112 &&
    (url.charCodeAt(4) | 32) === 115 &&
    url.charCodeAt(5) === 58
  )
}

/**
 * A mobile or AMP mirror: MIRROR_HOST or AMP_PATH on the lower-cased URL. Lower-casing turns no non-ASCII
 * character into ASCII but the Kelvin sign (K → k) and the dotted capital I (İ → i̇), and no ASCII character into
 * anything but its lower case; so without those two, the case-insensitive regexes on the URL itself answer the
 * same, without the lower-cased copy.
 */
export function isMirror(url: string): boolean {
  if (url.includes('\u212a') || url.includes('\u0130')) return isMirrorByRegex(url)
  return MIRROR_HOST_ANY_CASE.test(url) || AMP_PATH_ANY_CASE.test(url)
}

function isMirrorByRegex(url: string): boolean {
  const lower = url.toLowerCase()
  if (MIRROR_HOST.test(lower)) return true
  return lower.includes('amp') && AMP_PATH.test(lower)
}

const TRACKING_FLAG = 1
const HTTPS_FLAG = 2
const MIRROR_FLAG = 4

function urlFlags(urls: Urls, id: number): number {
  let flags = urls.flags[id]!
  if (flags === -1) {
    const text = urls.text[id]!
    flags =
      (hasTracking(text) ? TRACKING_FLAG : 0) | (isHttps(text) ? HTTPS_FLAG : 0) | (isMirror(text) ? MIRROR_FLAG : 0)
    urls.flags[id] = flags
  }
  return flags
}

export function pickUrl(occ: Occurrences, urls: Urls, start: number, count: number): string {
  const byGroup = occ.byGroup
  let winner = byGroup[start]!
  let winId = occ.url[winner]!
  if (count === 1) return urls.text[winId]!
  // One pass, best under: no tracking, https, not a mirror, best ranked, shortest, then by text.
  let winFlags = urlFlags(urls, winId)
  for (let i = 1; i < count; i++) {
    const o = byGroup[start + i]!
    const id = occ.url[o]!
    if (id === winId) continue
    const flags = urlFlags(urls, id)
    const text = urls.text[id]!
    const winText = urls.text[winId]!
    const order =
      (flags & TRACKING_FLAG) - (winFlags & TRACKING_FLAG) ||
      (winFlags & HTTPS_FLAG) - (flags & HTTPS_FLAG) ||
      (flags & MIRROR_FLAG) - (winFlags & MIRROR_FLAG) ||
      byRankThenProvider(occ, o, winner) ||
      text.length - winText.length ||
      cmp(text, winText)
    if (order < 0) {
      winner = o
      winId = id
      winFlags = flags
    }
  }
  return urls.text[winId]!
}
