import type { RateLimitReading } from './rate-limit-headers.js'
import { redactSecrets } from './redact.js'
import { upstreamWaitMs } from './upstream-wait.js'

/** What went wrong with a provider call; branch on this, never on message text. */
export type ProviderErrorKind =
  | 'auth'
  | 'quota'
  | 'rate_limited'
  | 'timeout'
  | 'upstream'
  | 'bad_request'
  | 'bad_response'
  | 'network'
  | 'config'

export const PROVIDER_ERROR_KINDS: readonly ProviderErrorKind[] = [
  'auth',
  'quota',
  'rate_limited',
  'timeout',
  'upstream',
  'bad_request',
  'bad_response',
  'network',
  'config',
]

const DEFAULT_RETRYABLE: Record<ProviderErrorKind, boolean> = {
  auth: false,
  quota: false,
  rate_limited: true,
  timeout: true,
  upstream: true,
  // The vendor refused our parameters: the same call fails the same way.
  bad_request: false,
  bad_response: false,
  network: true,
  config: false,
}

export interface ProviderErrorOptions {
  kind: ProviderErrorKind
  /** Which upstream: a provider name, `github`, `llm`, `page`… */
  provider?: string
  status?: number
  retryable?: boolean
  retryAfterMs?: number
  /** The vendor's own error code (`RATE_LIMITED`, `INVALID_API_KEY`…), safe to show. */
  code?: string
  /**
   * What the vendor's error body says about the key's limits (Brave's 429 `meta`: per-second rate, monthly quota),
   * so pacing learns them even when the answer carried no rate-limit headers.
   */
  limits?: VendorLimits
  cause?: unknown
  /** Secrets to scrub from the message, on top of the well-known key shapes. */
  secrets?: readonly (string | undefined)[]
}

/** The limits a vendor states in an error body. */
export type VendorLimits = Pick<RateLimitReading, 'perSecond' | 'quotaLimit' | 'quotaRemaining'>

/**
 * A failed call to an upstream service. The message is human-readable and never contains a key or token.
 */
export class ProviderError extends Error {
  override readonly name = 'ProviderError'
  readonly kind: ProviderErrorKind
  readonly provider?: string
  readonly status?: number
  readonly retryable: boolean
  /** The vendor's wait, range-checked (`upstreamWaitMs`): never negative, Infinity or more than a year. */
  readonly retryAfterMs?: number
  /** The vendor stated a wait that was not believable, so `retryAfterMs` is unset: worth a warning. */
  readonly retryAfterIgnored?: true
  readonly code?: string
  readonly limits?: VendorLimits

  constructor(message: string, options: ProviderErrorOptions) {
    super(redactSecrets(message, options.secrets), options.cause === undefined ? undefined : { cause: options.cause })
    this.kind = options.kind
    this.provider = options.provider
    this.status = options.status
    this.code = options.code
    // Every provider builds its errors here, whatever header or body field its wait came from.
    this.retryAfterMs = upstreamWaitMs(options.retryAfterMs)
    if (options.retryAfterMs !== undefined && this.retryAfterMs === undefined) this.retryAfterIgnored = true
    this.limits = options.limits
    this.retryable = options.retryable ?? DEFAULT_RETRYABLE[options.kind]
  }

  /** A plain object for JSON output and logs: no stack, no cause, no secrets. */
  toJSON(): {
    kind: ProviderErrorKind
    message: string
    provider?: string
    status?: number
    retryAfterMs?: number
    code?: string
  } {
    return {
      kind: this.kind,
      message: this.message,
      ...(this.provider !== undefined && { provider: this.provider }),
      ...(this.status !== undefined && { status: this.status }),
      ...(this.retryAfterMs !== undefined && { retryAfterMs: this.retryAfterMs }),
      ...(this.code !== undefined && { code: this.code }),
    }
  }
}

/** True for a `ProviderError`, also across duplicated package copies. */
export function isProviderError(value: unknown): value is ProviderError {
  return value instanceof ProviderError || (value instanceof Error && value.name === 'ProviderError' && 'kind' in value)
}

const KEY_WORDS =
  /\b(?:api[\s_-]?key|x-api-key|subscription[\s_-]?token|access[\s_-]?token|bearer|authori[sz]ation header)\b/i
const REJECTION_WORDS =
  /\b(?:invalid|incorrect|missing|wrong|not valid|malformed|revoked|expired|disabled|not provided|not found)\b/i
const UNAUTHORIZED = /\bunauthori[sz]ed\b|\bauthentication (?:failed|required)\b|\bnot authenticated\b/i
// "API key budget exceeded", "key credits exhausted": the key is fine, its money is not.
const SPENDING_WORDS = /\b(?:budget|credits?|quota|spending|billing|balance)\b/i

/**
 * True when a vendor's error text says the key itself is missing, invalid or wrong, whatever the HTTP status
 * (Exa and xAI answer a bad key with 400, not 401). Texts about a key's budget or credits are not key rejections.
 */
export function describesKeyRejection(text: string | null | undefined): boolean {
  if (!text || SPENDING_WORDS.test(text)) return false
  return UNAUTHORIZED.test(text) || (KEY_WORDS.test(text) && REJECTION_WORDS.test(text))
}

/** A configuration problem: a malformed config file, a missing key, an invalid setting. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError'
  /** The file the problem is in, when there is one. */
  readonly file?: string
  /** The field path inside it (`grok.apiUrl`). */
  readonly field?: string
  /** The environment variable at fault (`BRAVE_API_URL`, `SEARCH_LAYER_CONFIG`). */
  readonly variable?: string

  constructor(message: string, options: { file?: string; field?: string; variable?: string; cause?: unknown } = {}) {
    super(redactSecrets(message), options.cause === undefined ? undefined : { cause: options.cause })
    this.file = options.file
    this.field = options.field
    this.variable = options.variable
  }
}

/** Invalid input from a caller: which field, which value, what is allowed. */
export class InputError extends Error {
  override readonly name = 'InputError'
  readonly issues: readonly { path: string; message: string }[]

  constructor(message: string, issues: readonly { path: string; message: string }[] = []) {
    super(redactSecrets(message))
    this.issues = issues
  }
}
