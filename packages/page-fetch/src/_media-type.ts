// What a response is: its media type, checked against the allowed ones, or sniffed when unlabelled.

export function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
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
