// What a response is: its media type, checked against the allowed ones, or sniffed when unlabelled.

export function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
}

// Labels servers put on a download: a `.pdf` URL served with one of them is taken for a PDF, if its bytes agree.
const DOWNLOAD_TYPES = new Set(['application/octet-stream', 'binary/octet-stream', 'application/download'])

/**
 * The media type a response is read as: its label, except that old PDF labels and a `.pdf` URL served as a
 * download are `application/pdf` (`hasPdfSignature` must then confirm it).
 */
export function readAsType(declared: string, url: URL): string {
  if (declared === 'application/x-pdf' || declared === 'application/acrobat') return 'application/pdf'
  if (DOWNLOAD_TYPES.has(declared) && /\.pdf$/i.test(url.pathname)) return 'application/pdf'
  return declared
}

/** Whether a body starts like a PDF: `%PDF-` within its first 1,024 bytes (where readers look for it). */
export function hasPdfSignature(body: Buffer): boolean {
  return body.subarray(0, 1024).includes('%PDF-', 0, 'latin1')
}

export function typeAllowed(type: string, allowed: readonly string[]): boolean {
  return allowed.some((pattern) => {
    const p = pattern.trim().toLowerCase()
    if (!p.includes('*')) return p === type
    const regex = new RegExp(
      `^${p
        .split('*')
        .map((part) => part.replace(/[.+?^${}()|[\]\\/]/g, '\\$&'))
        .join('[^/]*')}$`,
    )
    return regex.test(type)
  })
}

/** A media type for a body the server did not label, from its first bytes (a cut-down WHATWG MIME sniff). */
export function sniffType(body: Buffer): string {
  const head = body.subarray(0, 1024).toString('latin1')
  const trimmed = head
    .replace(/^\uFEFF|^\xEF\xBB\xBF/, '')
    .trimStart()
    .toLowerCase()
  if (/^<(!doctype html|html|head|body|script|iframe|h1|div|font|table|a|style|title|b|br|p|!--)[\s>]/.test(trimmed))
    return 'text/html'
  if (trimmed.startsWith('<?xml')) return 'text/xml'
  if (hasPdfSignature(body)) return 'application/pdf'
  if (/^[{[]/.test(trimmed)) {
    try {
      JSON.parse(body.toString('utf8'))
      return 'application/json'
    } catch {
      // Not JSON after all: fall through to the text/binary check.
    }
  }
  for (const byte of body.subarray(0, 1024)) {
    if (
      byte === 0 ||
      (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0c && byte !== 0x0d && byte !== 0x1b)
    )
      return 'application/octet-stream'
  }
  return 'text/plain'
}
