// Well-known credential shapes, scrubbed even when nobody told us the value.
const KEY_PATTERNS: readonly RegExp[] = [
  /\b(?:sk|pk|rk)-[A-Za-z0-9_-]{12,}/g, // OpenAI-style
  /\bxai-[A-Za-z0-9_-]{12,}/g,
  /\btvly-[A-Za-z0-9_-]{8,}/g,
  /\bBSA[A-Za-z0-9_-]{16,}/g, // Brave subscription tokens
  /\bgh[pousr]_[A-Za-z0-9]{20,}/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,}/g,
  /\b(Bearer|token)\s+[A-Za-z0-9._~+/-]{8,}=*/gi,
  /([?&](?:api_?key|key|token|access_token|subscription_token)=)[^&\s#]+/gi,
]

const MASK = '[redacted]'

/**
 * Removes secrets from a string: the given values wherever they appear, and well-known key shapes.
 */
export function redactSecrets(text: string, secrets: readonly (string | undefined | null)[] = []): string {
  let out = text
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
