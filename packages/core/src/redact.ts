// Well-known credential shapes, scrubbed even when nobody told us the value.
const KEY_PATTERNS: readonly RegExp[] = [
  /\b(?:sk|pk|rk)-[A-Za-z0-9_-]{12,}/g, // OpenAI-style
  /\bxai-[A-Za-z0-9_-]{12,}/g,
  /\btvly-[A-Za-z0-9_-]{8,}/g,
  /\bBSA[A-Za-z0-9_-]{16,}/g, // Brave subscription tokens
  /\bgh[pousr]_[A-Za-z0-9]{20,}/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,}/g,
  /\b(Bearer|token)\s+[A-Za-z0-9._~+/-]{8,}=*/gi,
  /([?&](?:api_?key|key|token|access_token|subscription_token|password|client_secret)=)[^&\s#]+/gi,
]

const MASK = '[redacted]'

// `scheme://user:password@`: the userinfo runs from `//` to the last `@` before the host, as URL parsers read it
// (`/`, `?`, `#` and `\` end the authority). Quotes, angle brackets and whitespace end it too, so a URL inside JSON
// or prose never swallows the text after it.
const URL_USERINFO = /\b([a-z][a-z0-9+.-]{0,30}:\/\/)[^\s/?#\\"'<>`]*@/gi
// The same URL percent-encoded, as it sits in another URL's query (`?url=https%3A%2F%2Fu%3Ap%40host`).
const ENCODED_URL_USERINFO = /\b([a-z][a-z0-9+.-]{0,30}%3a%2f%2f)(?:[^\s/?#\\"'<>`%&=]|%(?!2f|3f|23)[0-9a-f]{2})*%40/gi

/**
 * Removes the `user:password@` part of every URL in a text (`https://u:p@host/x` → `https://host/x`). For logs,
 * stored entries and messages; a URL value is better served by `stripUrlCredentials`.
 */
export function stripUrlCredentialsInText(text: string): string {
  const plain = text.includes('@') ? text.replace(URL_USERINFO, '$1') : text
  return plain.includes('%40') ? plain.replace(ENCODED_URL_USERINFO, '$1') : plain
}

/**
 * A URL without its `user:password@` part, as a string: the one helper for URLs that are stored, logged or shown.
 * A string that does not parse as a URL gets the text form's treatment instead.
 */
export function stripUrlCredentials(url: string | URL): string {
  // A parsed URL without credentials (every search result's) is not parsed again, nor copied.
  if (typeof url !== 'string' && url.username === '' && url.password === '') return url.href
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return stripUrlCredentialsInText(String(url))
  }
  parsed.username = ''
  parsed.password = ''
  return parsed.href
}

/**
 * Removes secrets from a string: the given values wherever they appear, well-known key shapes, secret query
 * parameters and the credentials of URLs (`https://user:pass@host`).
 */
export function redactSecrets(text: string, secrets: readonly (string | undefined | null)[] = []): string {
  let out = stripUrlCredentialsInText(text)
  for (const secret of secrets) {
    // Short values are not secrets we can safely search for (they would mangle ordinary words).
    if (secret && secret.length >= 6) out = out.split(secret).join(MASK)
  }
  for (const pattern of KEY_PATTERNS) {
    out = out.replace(pattern, (match, prefix: string | undefined) => {
      if (typeof prefix === 'string' && /^[?&]/.test(prefix)) return `${prefix}${MASK}`
      if (typeof prefix === 'string') return `${prefix} ${MASK}`
      return match.length > 0 ? MASK : match
    })
  }
  return out
}
