const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" }

/** Plain text from a vendor string: tags stripped, common entities decoded, whitespace collapsed; never null. */
export function plainText(value: unknown): string {
  if (typeof value !== 'string') return ''
  return value
    .replace(/<[^>]{0,500}>/g, ' ')
    .replace(/&(#\d{1,6}|#x[0-9a-f]{1,6}|[a-z]{2,6});/gi, (match, name: string) => {
      const lower = name.toLowerCase()
      if (lower in ENTITIES) return ENTITIES[lower]!
      const code = lower.startsWith('#x') ? Number.parseInt(lower.slice(2), 16) : lower.startsWith('#') ? Number(lower.slice(1)) : Number.NaN
      return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : match
    })
    .replace(/\s+/g, ' ')
    .trim()
}

/** The absolute http(s) URL with a host, or null when the value is not one. */
export function httpUrl(value: unknown): string | null {
  if (typeof value !== 'string') return null
  let parsed: URL
  try {
    parsed = new URL(value.trim())
  } catch {
    return null
  }
  if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || !parsed.hostname) return null
  return parsed.href
}

/** An ISO 8601 timestamp from an HTTP-date or ISO string, or null when it cannot be read. */
export function isoDate(value: unknown): string | null {
  if (typeof value !== 'string' || value.trim() === '') return null
  const ms = Date.parse(value.trim())
  if (Number.isNaN(ms)) return null
  const date = new Date(ms)
  // Years outside 4 digits are parse artefacts, not publication dates.
  const year = date.getUTCFullYear()
  return year < 1000 || year > 9999 ? null : date.toISOString()
}
