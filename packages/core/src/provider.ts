import type { ConfigReading } from './_config-reading.js'
import type { Env } from './env.js'
import type { ProviderResponse } from './response-schemas.js'
import type { ProviderName, ProviderRequest } from './schemas.js'

export type { Env }

/** Per-call context a provider receives beside the request. */
export interface ProviderContext {
  /** Cancels the call; combined with the request's own signal. */
  signal?: AbortSignal
  /** Absolute time (epoch ms) by which the call must have settled, retries included. */
  deadlineAt?: number
  /** Where keys are read from at call time; defaults to `process.env`. */
  env?: Env
  /**
   * The config files as the caller read them (`readConfigFiles`) for this env: the provider resolves its settings
   * against that reading instead of checking the files again. A search reads them once for all its calls.
   */
  config?: ConfigReading
  /** The clock, injectable for tests (time-sensitive prompts, date windows). */
  now?: () => Date
  /** The key for this call, chosen from the configured pool (`BRAVE_API_KEY=key1,key2`); wins over the resolved one. */
  apiKey?: string
  /** Sees the status and headers of every upstream answer (errors too), e.g. to learn the vendor's rate limits. */
  onResponse?: (response: UpstreamResponseMeta) => void
  /**
   * Told each time a request of this call has been written to its connection (once per attempt): work that waits
   * for the answer can start while it travels. Providers built with `defineProvider` report it through core's HTTP
   * client; a provider that does not is simply never heard from here.
   */
  onRequestSent?: () => void
  /**
   * `false` when another key can take over: a rate-limited answer then ends the call at once instead of waiting to
   * retry the same key. Default true.
   */
  retryRateLimited?: boolean
}

/** The status and headers (lower-case names) of one upstream answer. */
export interface UpstreamResponseMeta {
  status: number
  headers: Readonly<Record<string, string>>
}

/** A search provider. Every provider package's `create<Name>Provider()` returns one. */
export interface Provider {
  readonly name: ProviderName
  /**
   * Whether a key is available right now (read at call time, never cached from import); against `config` when given
   * (see `ProviderContext.config`).
   */
  isConfigured(env?: Env, config?: ConfigReading): boolean
  /**
   * Runs one query. Rejects only with a `ProviderError` (every `kind` is possible).
   */
  search(request: ProviderRequest, ctx?: ProviderContext): Promise<ProviderResponse>
}
