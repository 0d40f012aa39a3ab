const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  ndash: '–',
  mdash: '—',
  hellip: '…',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  laquo: '«',
  raquo: '»',
  middot: '·',
  bull: '•',
  copy: '©',
  reg: '®',
  trade: '™',
}

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,8});/gi, (match, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? Number.parseInt(body.slice(2), 16) : Number.parseInt(body.slice(1), 10)
      // Lone surrogates and out-of-range code points would throw in fromCodePoint or produce broken text.
      if (!Number.isFinite(code) || code <= 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return match
      return String.fromCodePoint(code)
    }
    return NAMED_ENTITIES[body.toLowerCase()] ?? match
  })
}

/** Plain text from a vendor string: tags removed, entities decoded, whitespace collapsed; never null. */
export function toPlainText(value: string | null | undefined): string {
  if (!value) return ''
  // Vendors promise plain text but snippets still carry <strong>/<em> and entities now and then.
  const stripped = value.replace(/<\/?[a-z][^<>]*>/gi, ' ')
  return decodeEntities(stripped).replace(/\s+/g, ' ').trim()
}

/** The URL as an absolute http(s) string, or undefined when it is not one. */
export function toHttpUrl(value: string | null | undefined): string | undefined {
  if (!value) return undefined
  let url: URL
  try {
    url = new URL(value.trim())
  } catch {
    return undefined
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined
  if (!url.hostname) return undefined
  return url.toString()
}

/** ISO 8601 from a vendor date; a date-time without an offset is read as UTC. Null when unusable. */
export function toIsoDate(value: string | null | undefined): string | null {
  if (!value) return null
  const trimmed = value.trim()
  const hasZone = /(?:z|[+-]\d{2}:?\d{2})$/i.test(trimmed)
  const candidate = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(trimmed) && !hasZone ? `${trimmed}Z` : trimmed
  if (!/^\d{4}-\d{2}-\d{2}/.test(candidate)) return null
  const ms = Date.parse(candidate)
  if (Number.isNaN(ms)) return null
  const date = new Date(ms)
  return Number.isNaN(date.getTime()) ? null : date.toISOString()
}

/** Whether a hostname is the domain or one of its subdomains. */
export function hostMatches(hostname: string, domain: string): boolean {
  const host = hostname.toLowerCase().replace(/^www\./, '')
  const d = domain.toLowerCase().replace(/^www\./, '')
  return host === d || host.endsWith(`.${d}`)
}
