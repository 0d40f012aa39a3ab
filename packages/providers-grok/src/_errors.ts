import { ProviderError, describesKeyRejection, redactSecrets } from '@search-layer/core'
import { type HttpErrorResponse, errorFromStatus, retryHint } from '@search-layer/core/http'
import { grokErrorSchema } from './schema.js'

export const SERVICE = 'grok'

export function badShape(what: string, issues: readonly { path: PropertyKey[]; message: string }[]): ProviderError {
  const where = issues
    .slice(0, 3)
    .map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.message}`)
    .join('; ')
  return new ProviderError(`grok ${what} did not have the expected shape (${where})`, {
    kind: 'bad_response',
    provider: SERVICE,
  })
}

// NOTE(grok): xAI has sent its error text URL-encoded (`Incorrect%20API%20key%20provided…`, beeai-framework#447);
// decode it so the message reads as words and the key check below can recognise it.
function decodePercentEscapes(text: string | undefined): string | undefined {
  if (!text || !/%[0-9a-f]{2}/i.test(text)) return text
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

function errorDetail(response: HttpErrorResponse): { detail?: string; code?: string } {
  const parsed = grokErrorSchema().safeParse(response.json)
  if (!parsed.success) return {}
  const { error, code, message } = parsed.data
  const detail = decodePercentEscapes(typeof error === 'string' ? error : (error?.message ?? message ?? undefined))
  const rawCode = typeof error === 'object' && error?.code != null ? error.code : code
  return { ...(detail && { detail }), ...(rawCode != null && { code: String(rawCode) }) }
}

/**
 * Maps an xAI error response: a bad key is **400** ("Incorrect API key", sometimes URL-encoded) or 401/403 → `auth`; exhausted credits or
 * spending limit → `quota`; 429 → `rate_limited`; 404 (unknown model) and 410 (retired endpoint) → non-retryable `upstream`.
 */
export function mapGrokError(
  response: HttpErrorResponse,
  secrets: readonly (string | undefined)[] = [],
): ProviderError {
  const { detail: raw, code } = errorDetail(response)
  const detail = raw ? truncate(redactSecrets(raw, secrets), 200) : undefined
  const suffix = detail ? `: ${detail}` : ''
  const base = { provider: SERVICE, status: response.status, code, secrets }
  const text = raw ?? ''
  const { status } = response
  if (/credits?|spending limit|billing|payment/i.test(text) && status !== 401 && status !== 500)
    return new ProviderError(`grok credits or spending limit exhausted (HTTP ${status})${suffix}`, {
      ...base,
      kind: 'quota',
    })
  if (status === 401 || status === 403 || (status < 500 && describesKeyRejection(text)))
    return new ProviderError(`grok rejected the API key (HTTP ${status}); check XAI_API_KEY${suffix}`, {
      ...base,
      kind: 'auth',
    })
  if (status === 402)
    return new ProviderError(`grok quota or credits exhausted (HTTP 402)${suffix}`, { ...base, kind: 'quota' })
  if (status === 429)
    return new ProviderError(`grok rate limit hit (HTTP 429)${suffix}${retryHint(response.retryAfterMs)}`, {
      ...base,
      kind: 'rate_limited',
      retryAfterMs: response.retryAfterMs,
    })
  if (status === 404)
    return new ProviderError(
      `grok endpoint or model not found (HTTP 404); check GROK_MODEL and GROK_API_URL${suffix}`,
      { ...base, kind: 'upstream', retryable: false },
    )
  if (status === 410)
    return new ProviderError(`grok endpoint is retired (HTTP 410); use the Responses API${suffix}`, {
      ...base,
      kind: 'upstream',
      retryable: false,
    })
  return errorFromStatus(SERVICE, status, { detail, code, retryAfterMs: response.retryAfterMs, secrets })
}

function truncate(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat
}
