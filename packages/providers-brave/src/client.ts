import {
  type Env,
  type Provider,
  type ProviderContext,
  ProviderError,
  type ProviderRequest,
  ProviderRequestSchema,
  type ProviderResponse,
  type ServiceConfig,
  isProviderError,
  requestJson,
  resolveConfig,
} from '@search-layer/core'
import { buildBraveQuery, mapBraveError, mapBraveResults, parseBraveRateLimit } from './map.js'
import { BraveSearchResponseSchema } from './schema.js'

/** Options of `createBraveProvider`; every field is optional and keys/URLs are read at call time. */
export interface BraveProviderOptions {
  /** Subscription token; wins over `BRAVE_API_KEY` and config files. */
  apiKey?: string
  /** Base URL (default `https://api.search.brave.com`, or `BRAVE_API_URL`); `/res/v1/web/search` is appended. */
  baseUrl?: string
  /** Time allowed per attempt (ms). Default 8000. */
  timeoutMs?: number
  /** Retries after the first attempt for retryable failures. Default 2 (core's default). */
  retries?: number
  /** Where keys are read from when the call context has no `env`; default `process.env`. */
  env?: Env
  /** Brave's `safesearch`. Default `moderate`. */
  safesearch?: 'off' | 'moderate' | 'strict'
  /** Ask for up to five extra excerpts per result (`extra_snippets`). Default true. */
  extraSnippets?: boolean
  /** Price of one request used for the cost estimate (Brave bills per request, not per result). Default 0.005 USD. */
  costPerRequestUsd?: number
  /** Largest response accepted (bytes). Default 2 MiB. */
  maxBytes?: number
}

const SEARCH_PATH = '/res/v1/web/search'
const DEFAULT_MAX_BYTES = 2 * 1024 * 1024

function configError(message: string, cause?: unknown): ProviderError {
  return new ProviderError(message, { kind: 'config', provider: 'brave', retryable: false, cause })
}

/**
 * Creates the Brave Web Search provider. `search()` rejects only with `ProviderError`
 * (`config`, `auth`, `quota`, `rate_limited`, `timeout`, `network`, `upstream`, `bad_response`).
 */
export function createBraveProvider(options: BraveProviderOptions = {}): Provider {
  const { timeoutMs = 8000, costPerRequestUsd = 0.005, maxBytes = DEFAULT_MAX_BYTES } = options

  const resolve = (env: Env | undefined): ServiceConfig => {
    try {
      return resolveConfig({
        overrides: { brave: { apiKey: options.apiKey, baseUrl: options.baseUrl } },
        env: env ?? options.env ?? process.env,
      }).brave
    } catch (error) {
      throw configError(`brave configuration is invalid: ${(error as Error).message}`, error)
    }
  }

  return {
    name: 'brave',
    isConfigured(env?: Env): boolean {
      try {
        return Boolean(resolve(env).apiKey)
      } catch {
        return false
      }
    },
    async search(request: ProviderRequest, ctx: ProviderContext = {}): Promise<ProviderResponse> {
      try {
        const parsed = ProviderRequestSchema.safeParse(request)
        if (!parsed.success) {
          const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')
          throw configError(`brave search request is invalid: ${issues}`)
        }
        const req = parsed.data
        const config = resolve(ctx.env)
        const apiKey = config.apiKey
        if (!apiKey) throw configError('brave is not configured: set BRAVE_API_KEY (or pass apiKey)')
        const signals = [req.signal, ctx.signal].filter((s): s is AbortSignal => s !== undefined)
        const response = await requestJson({
          service: 'brave',
          url: `${config.baseUrl}${SEARCH_PATH}`,
          method: 'GET',
          query: buildBraveQuery(req, { safesearch: options.safesearch, extraSnippets: options.extraSnippets }),
          headers: { 'x-subscription-token': apiKey, 'accept-encoding': 'identity' },
          schema: BraveSearchResponseSchema,
          timeoutMs,
          maxBytes,
          ...(options.retries !== undefined && { retries: options.retries }),
          ...(signals.length > 0 && { signal: signals.length === 1 ? signals[0] : AbortSignal.any(signals) }),
          ...(ctx.deadlineAt !== undefined && { deadlineAt: ctx.deadlineAt }),
          secrets: [apiKey],
          env: ctx.env ?? options.env ?? process.env,
          mapError: (res) => mapBraveError(res, [apiKey]),
        })
        const { results, dropped } = mapBraveResults(response.data, req)
        const rateLimit = parseBraveRateLimit(response.headers)
        return {
          results,
          dropped,
          cost: { usd: costPerRequestUsd, credits: 1, basis: 'estimated' },
          ...(rateLimit && { rateLimit }),
        }
      } catch (error) {
        if (isProviderError(error)) throw error
        throw new ProviderError(`brave search failed unexpectedly: ${(error as Error)?.message ?? String(error)}`, {
          kind: 'bad_response',
          provider: 'brave',
          cause: error,
        })
      }
    },
  }
}
