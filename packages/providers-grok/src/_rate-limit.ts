import type { RateLimitInfo } from '@search-layer/core'

function headerNumber(headers: Readonly<Record<string, string>>, names: readonly string[]): number | undefined {
  for (const name of names) {
    const raw = headers[name]
    if (raw === undefined) continue
    const value = Number.parseFloat(raw)
    if (Number.isFinite(value) && value >= 0) return value
  }
  return undefined
}

/** Rate-limit hints from `x-ratelimit-*-requests` (OpenAI-style) or `x-ratelimit-*` headers. */
export function rateLimitFromHeaders(headers: Readonly<Record<string, string>>): RateLimitInfo | undefined {
  const limit = headerNumber(headers, ['x-ratelimit-limit-requests', 'x-ratelimit-limit', 'ratelimit-limit'])
  const remaining = headerNumber(headers, [
    'x-ratelimit-remaining-requests',
    'x-ratelimit-remaining',
    'ratelimit-remaining',
  ])
  const quotaLimit = headerNumber(headers, ['x-ratelimit-limit-tokens'])
  const quotaRemaining = headerNumber(headers, ['x-ratelimit-remaining-tokens'])
  if ([limit, remaining, quotaLimit, quotaRemaining].every((v) => v === undefined)) return undefined
  return {
    ...(limit !== undefined && { limit }),
    ...(remaining !== undefined && { remaining }),
    ...(quotaLimit !== undefined && { quotaLimit }),
    ...(quotaRemaining !== undefined && { quotaRemaining }),
  }
}
