import { redactSecrets } from '@search-layer/core'

/**
 * What went wrong with a fetch; branch on this, never on message text. `empty`: the document has no text to read
 * (a PDF of scanned images). `unreadable`: the document is broken or encrypted. `render_failed`: rendering the page
 * in headless Chromium (`SEARCH_LAYER_BROWSER`) failed: the browser would not start or crashed, or the page outgrew a
 * render limit (requests, bytes, DOM size, JS heap).
 */
export type FetchErrorKind =
  | 'bad_url'
  | 'blocked'
  | 'too_large'
  | 'unsupported_type'
  | 'http'
  | 'timeout'
  | 'network'
  | 'empty'
  | 'unreadable'
  | 'render_failed'

/** Every `FetchErrorKind`, for exhaustive tables (exit codes, HTTP statuses). */
export const FETCH_ERROR_KINDS: readonly FetchErrorKind[] = [
  'bad_url',
  'blocked',
  'too_large',
  'unsupported_type',
  'http',
  'timeout',
  'network',
  'empty',
  'unreadable',
  'render_failed',
]

const DEFAULT_RETRYABLE: Record<FetchErrorKind, boolean> = {
  bad_url: false,
  blocked: false,
  too_large: false,
  unsupported_type: false,
  http: false,
  timeout: true,
  network: true,
  empty: false,
  unreadable: false,
  render_failed: false,
}

/** Constructor options of `FetchError`. */
export interface FetchErrorOptions {
  kind: FetchErrorKind
  /** The URL the caller asked for (not a redirect target). */
  url: string
  status?: number
  retryable?: boolean
  cause?: unknown
}

/** A refused or failed page fetch. The message names the URL (with credentials and key-like query values scrubbed). */
export class FetchError extends Error {
  override readonly name = 'FetchError'
  readonly kind: FetchErrorKind
  readonly url: string
  readonly status?: number
  readonly retryable: boolean

  constructor(message: string, options: FetchErrorOptions) {
    super(redactSecrets(message), options.cause === undefined ? undefined : { cause: options.cause })
    this.kind = options.kind
    this.url = redactSecrets(options.url)
    this.status = options.status
    this.retryable = options.retryable ?? DEFAULT_RETRYABLE[options.kind]
  }

  /** A plain object for JSON output and logs: no stack, no cause. */
  toJSON(): { kind: FetchErrorKind; message: string; url: string; status?: number; retryable: boolean } {
    return {
      kind: this.kind,
      message: this.message,
      url: this.url,
      ...(this.status !== undefined && { status: this.status }),
      retryable: this.retryable,
    }
  }
}

/** True for a `FetchError`, also across duplicated package copies. */
export function isFetchError(value: unknown): value is FetchError {
  return (
    value instanceof FetchError ||
    (value instanceof Error && value.name === 'FetchError' && 'kind' in value && 'url' in value)
  )
}
