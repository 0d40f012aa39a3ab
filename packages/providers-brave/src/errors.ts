import { ProviderError, type RateLimitInfo, type VendorLimits, describesKeyRejection } from '@search-layer/core'
import { type HttpErrorResponse, errorFromStatus, resetDelayMs } from '@search-layer/core/http'
import { type BraveErrorMeta, braveErrorMetaSchema, braveErrorSchema } from './schema.js'

// What Brave says about its limits and failures: the two-valued rate-limit headers, the plan in an error's `meta`,
// and error bodies mapped to `ProviderError`s in Brave's own words.

function parseNumberList(value: string | undefined): number[] {
  if (!value) return []
  return value
    .split(',')
    .map((part) => Number(part.trim()))
    .filter((n) => Number.isFinite(n) && n >= 0)
}

/**
 * Reads Brave's two-valued `X-RateLimit-Limit/Remaining/Reset` headers (`1, 15000`: per second, per month; resets
 * are seconds to wait, per Brave's docs, and a Unix time is read as one too). Undefined when none are present.
 */
export function parseBraveRateLimit(
  headers: Readonly<Record<string, string>>,
  nowMs: number,
): RateLimitInfo | undefined {
  const limit = parseNumberList(headers['x-ratelimit-limit'])
  const remaining = parseNumberList(headers['x-ratelimit-remaining'])
  const reset = parseNumberList(headers['x-ratelimit-reset'])
  const info: RateLimitInfo = {}
  if (limit[0] !== undefined) info.limit = limit[0]
  if (remaining[0] !== undefined) info.remaining = remaining[0]
  const resetMs = reset[0] === undefined ? undefined : resetDelayMs(reset[0], nowMs)
  if (resetMs !== undefined) info.resetMs = resetMs
  if (limit[1] !== undefined) info.quotaLimit = limit[1]
  if (remaining[1] !== undefined) info.quotaRemaining = remaining[1]
  const quotaResetMs = reset[1] === undefined ? undefined : resetDelayMs(reset[1], nowMs)
  if (quotaResetMs !== undefined) info.quotaResetMs = quotaResetMs
  return Object.keys(info).length > 0 ? info : undefined
}

/** The vendor's own words as a sentence: whitespace collapsed, capped, ending in punctuation; '' when none. */
function vendorWords(detail: string | null | undefined): string {
  if (!detail) return ''
  const flat = detail.replace(/\s+/g, ' ').trim()
  if (!flat) return ''
  const capped = flat.length > 200 ? `${flat.slice(0, 199)}…` : flat
  return /[.!?…]$/.test(capped) ? capped : `${capped}.`
}

const count = (n: number): string => n.toLocaleString('en-US')

/**
 * What Brave's `meta` says about the plan, as sentences a person can act on:
 * `Plan "Free" allows 1 request per second (1 in flight); 15 of 2,000 monthly requests used.`
 */
function describeBravePlan(meta: BraveErrorMeta | undefined): string {
  if (!meta) return ''
  const parts: string[] = []
  const plan = meta.plan ? `Plan "${meta.plan}"` : 'The plan'
  if (typeof meta.rate_limit === 'number') {
    const current =
      typeof meta.rate_current === 'number' ? ` (${count(meta.rate_current)} already used this second)` : ''
    parts.push(
      `${plan} allows ${count(meta.rate_limit)} request${meta.rate_limit === 1 ? '' : 's'} per second${current}`,
    )
  } else if (meta.plan) parts.push(plan)
  if (typeof meta.quota_limit === 'number' && typeof meta.quota_current === 'number')
    parts.push(`${count(meta.quota_current)} of ${count(meta.quota_limit)} monthly requests used`)
  return parts.length > 0 ? `${parts.join('; ')}.` : ''
}

/** The plan's limits as pacing reads them: its per-second rate and what is left of the monthly quota. */
function braveLimits(meta: BraveErrorMeta | undefined): VendorLimits | undefined {
  if (!meta) return undefined
  const limits: VendorLimits = {}
  if (typeof meta.rate_limit === 'number' && meta.rate_limit > 0) limits.perSecond = meta.rate_limit
  if (typeof meta.quota_limit === 'number' && meta.quota_limit > 0) {
    limits.quotaLimit = meta.quota_limit
    if (typeof meta.quota_current === 'number')
      limits.quotaRemaining = Math.max(0, meta.quota_limit - meta.quota_current)
  }
  return Object.keys(limits).length > 0 ? limits : undefined
}

// Pydantic-style `loc` + `msg` of a failed parameter: `query.count: Input should be less than or equal to 20`.
function failedParameters(meta: BraveErrorMeta | undefined): string {
  const errors = meta?.errors ?? []
  return errors
    .slice(0, 3)
    .map((e) => [e.loc?.join('.'), e.msg].filter(Boolean).join(': '))
    .filter((text) => text.length > 0)
    .join('; ')
}

// A VALIDATION error is about the token only when Brave says the token is what failed; Brave now reports a bad
// token as SUBSCRIPTION_TOKEN_INVALID, and a real VALIDATION with an empty `meta` was a parameter problem.
function validationIsAboutToken(meta: BraveErrorMeta | undefined, detail: string | null | undefined): boolean {
  if (describesKeyRejection(detail)) return true
  return (meta?.errors ?? []).some((e) => /subscription|token/i.test(e.loc?.join('.') ?? ''))
}

/**
 * Maps Brave's error responses to `ProviderError`, keeping Brave's own `detail` in the message: token errors
 * (any status) → `auth`, 422 `VALIDATION` → non-retryable `upstream` naming the failed parameters,
 * 429 `RATE_LIMITED` → `rate_limited` and `QUOTA_LIMITED` → `quota`, both with the plan, its per-second rate and
 * the monthly quota used; undefined for the status-based default.
 */
export function mapBraveError(
  response: HttpErrorResponse,
  secrets: readonly (string | undefined)[] = [],
): ProviderError | undefined {
  const parsed = braveErrorSchema().safeParse(response.json)
  const error = parsed.success ? parsed.data.error : undefined
  const metaParsed = braveErrorMetaSchema().safeParse(error?.meta)
  const meta = metaParsed.success ? metaParsed.data : undefined
  const code = error?.code ?? undefined
  const status = response.status
  const label = `HTTP ${status}${code ? ` ${code}` : ''}`
  const words = vendorWords(error?.detail)
  const said = words ? `: ${words}` : ''
  const plan = describeBravePlan(meta)
  const base = { provider: 'brave', status, code, secrets, limits: braveLimits(meta) }
  // NOTE(brave): Retry-After is not always sent on 429; the first X-RateLimit-Reset value is the per-second window,
  // and without headers the plan's per-second rate in the body says how long one slot lasts.
  const resetSec = parseNumberList(response.headers['x-ratelimit-reset'])[0]
  const perSecond = meta?.rate_limit
  const retryAfterMs =
    response.retryAfterMs ??
    (resetSec !== undefined
      ? resetSec * 1000
      : typeof perSecond === 'number' && perSecond > 0
        ? Math.ceil(1000 / perSecond)
        : undefined)
  const tokenRejected = `brave rejected the subscription token (${label})${said} Check BRAVE_API_KEY.`

  if (code === 'SUBSCRIPTION_TOKEN_INVALID' || status === 401 || status === 403)
    return new ProviderError(tokenRejected, { ...base, kind: 'auth' })
  if (code === 'VALIDATION' || (status === 422 && code === undefined)) {
    if (validationIsAboutToken(meta, error?.detail)) return new ProviderError(tokenRejected, { ...base, kind: 'auth' })
    const which = failedParameters(meta)
    const where = which
      ? ` Failed: ${which}.`
      : ' Brave named no parameter; the key is not the problem, check the query options sent (count, country, search_lang, freshness).'
    return new ProviderError(`brave rejected the request parameters (${label})${said}${where}`, {
      ...base,
      kind: 'bad_request',
    })
  }
  if (code === 'QUOTA_LIMITED' || status === 402)
    return new ProviderError(
      `brave monthly quota exhausted (${label})${said}${plan ? ` ${plan}` : ''} Wait for the monthly reset or upgrade the plan.`,
      { ...base, kind: 'quota', retryAfterMs: response.retryAfterMs },
    )
  if (status === 429 || code === 'RATE_LIMITED')
    return new ProviderError(
      `brave rate limit hit (${label})${said}${plan ? ` ${plan}` : ''}${
        typeof perSecond === 'number' ? ` Send at most ${count(perSecond)} per second or upgrade the plan.` : ''
      }${retryAfterMs !== undefined ? ` Retry after ${Math.ceil(retryAfterMs / 1000)}s.` : ''}`,
      { ...base, kind: 'rate_limited', retryAfterMs },
    )
  if (describesKeyRejection(error?.detail)) return new ProviderError(tokenRejected, { ...base, kind: 'auth' })
  if (status === 422 || code === 'OPTION_NOT_IN_PLAN')
    return new ProviderError(`brave refused the request (${label})${said}`, { ...base, kind: 'bad_request' })
  if (words) return errorFromStatus('brave', status, { detail: words, code, retryAfterMs, secrets })
  return undefined
}
