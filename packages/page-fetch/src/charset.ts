/** Where the charset of a body came from. */
export type CharsetSource = 'bom' | 'header' | 'meta' | 'default'

/** Canonical WHATWG encoding name for a label (`gb2312` → `gbk`, `latin1` → `windows-1252`), or undefined if unknown. */
export function normalizeCharset(label: string | undefined | null): string | undefined {
  if (!label) return undefined
  const trimmed = label.trim().replace(/^["']|["']$/g, '')
  if (trimmed === '') return undefined
  try {
    return new TextDecoder(trimmed).encoding
  } catch {
    return undefined
  }
}

/** The `charset` parameter of a Content-Type header value. */
export function charsetFromContentType(contentType: string | undefined | null): string | undefined {
  if (!contentType) return undefined
  const match = /;\s*charset\s*=\s*("?)([^";,\s]+)\1/i.exec(contentType)
  return match?.[2]
}

function bomCharset(body: Uint8Array): string | undefined {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return 'utf-8'
  if (body[0] === 0xfe && body[1] === 0xff) return 'utf-16be'
  if (body[0] === 0xff && body[1] === 0xfe) return 'utf-16le'
  return undefined
}

const META_PRESCAN_BYTES = 4096

function metaCharset(body: Uint8Array): string | undefined {
  // Latin-1 maps each byte to one code unit, so ASCII markup is readable whatever the real encoding is.
  const head = Buffer.from(body.buffer, body.byteOffset, Math.min(body.byteLength, META_PRESCAN_BYTES)).toString(
    'latin1',
  )
  const xml = /^\s*<\?xml\s[^>]*encoding\s*=\s*["']([^"']+)["']/i.exec(head)
  if (xml?.[1]) return xml[1]
  const withoutComments = head.replace(/<!--[\s\S]*?-->/g, '')
  for (const tag of withoutComments.match(/<meta\b[^>]*>/gi) ?? []) {
    const direct = /\bcharset\s*=\s*["']?\s*([^"'\s/>;]+)/i.exec(tag)
    if (direct?.[1] && !/http-equiv/i.test(tag)) return direct[1]
    if (/http-equiv\s*=\s*["']?content-type/i.test(tag)) {
      const content = /\bcontent\s*=\s*("([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(tag)
      const value = content?.[2] ?? content?.[3] ?? content?.[4]
      const fromContent = charsetFromContentType(value ? `x;${value.replace(/^[^;]*;/, '')}` : undefined)
      if (fromContent) return fromContent
    }
  }
  return undefined
}

/**
 * Picks the encoding of a body: a byte-order mark wins (as in the WHATWG encoding standard, a BOM is
 * definitive), then the Content-Type charset, then `<meta charset>` / `<meta http-equiv>` / the XML
 * declaration in the first 4 KiB of markup, else UTF-8. Unknown labels are skipped, never thrown.
 */
export function detectCharset(
  body: Uint8Array,
  contentType?: string | null,
): { charset: string; source: CharsetSource } {
  const bom = bomCharset(body)
  if (bom) return { charset: bom, source: 'bom' }
  const header = normalizeCharset(charsetFromContentType(contentType))
  if (header) return { charset: header, source: 'header' }
  const mime = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
  if (mime === '' || mime.includes('html') || mime.includes('xml')) {
    const meta = normalizeCharset(metaCharset(body))
    // NOTE(html): a meta prescan that claims UTF-16 is wrong by construction (we just read it as ASCII), so it means UTF-8.
    if (meta) return { charset: meta.startsWith('utf-16') ? 'utf-8' : meta, source: 'meta' }
  }
  return { charset: 'utf-8', source: 'default' }
}

/** Decodes a body with the given WHATWG encoding, replacing invalid sequences, dropping a matching BOM. */
export function decodeBody(body: Uint8Array, charset: string): string {
  try {
    return new TextDecoder(charset).decode(body)
  } catch {
    // An unknown label only reaches here from a caller; the fetch path always passes a normalised name.
    return new TextDecoder('utf-8').decode(body)
  }
}
