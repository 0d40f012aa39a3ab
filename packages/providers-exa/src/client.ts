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
import { type ExaContents, buildExaRequest, exaCost, mapExaError, mapExaResults, parseExaRateLimit } from './map.js'
import { type ExaSearchType, ExaSearchResponseSchema } from './schema.js'

/** Options of `createExaProvider`; every field is optional and keys/URLs are read at call time. */
export interface ExaProviderOptions {
  /** API key; wins over `EXA_API_KEY` and config files. */
  apiKey?: string
  /** Base URL (default `https://api.exa.ai`, or `EXA_API_URL`); `/search` is appended. */
  baseUrl?: string
  /** Time allowed per attempt (ms). Default 8000. */
  timeoutMs?: number
  /** Retries after the first attempt for retryable failures. Default 2 (core's default). */
  retries?: number
  /** Where keys are read from when the call context has no `env`; default `process.env`. */
  env?: Env
  /** Exa's search `type`. Default `auto`. */
  type?: ExaSearchType
  /** Which contents to request for snippets. Default `highlights+text`. */
  contents?: ExaContents
  /** Cap on highlight and text characters requested per result. Default 1000. */
  maxCharacters?: number
  /** Longest snippet built from page text when there are no highlights. Default 500. */
  snippetMaxChars?: number
  /** Exa's `category` filter (`news`, `research paper`, `company`, `pdf`…). */
  category?: string
  /** Largest response accepted (bytes). Default 5 MiB. */
  maxBytes?: number
}

const SEARCH_PATH = '/search'

function configError(message: string, cause?: unknown): ProviderError {
  return new ProviderError(message, { kind: 'config', provider: 'exa', retryable: false, cause })
}

/**
 * Creates the Exa search provider. `search()` rejects only with `ProviderError`
 * (`config`, `auth`, `quota`, `rate_limited`, `timeout`, `network`, `upstream`, `bad_response`).
 */
export function createExaProvider(options: ExaProviderOptions = {}): Provider {
  const { timeoutMs = 8000, snippetMaxChars = 500 } = options

  const resolve = (env: Env | undefined): ServiceConfig => {
    try {
      return resolveConfig({
        overrides: { exa: { apiKey: options.apiKey, baseUrl: options.baseUrl } },
        env: env ?? options.env ?? process.env,
      }).exa
    } catch (error) {
      throw configError(`exa configuration is invalid: ${(error as Error).message}`, error)
    }
  }

  return {
    name: 'exa',
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
          throw configError(`exa search request is invalid: ${issues}`)
        }
        const req = parsed.data
        const config = resolve(ctx.env)
        const apiKey = config.apiKey
        if (!apiKey) throw configError('exa is not configured: set EXA_API_KEY (or pass apiKey)')
        const signals = [req.signal, ctx.signal].filter((s): s is AbortSignal => s !== undefined)
        const body = buildExaRequest(req, {
          type: options.type,
          contents: options.contents,
          maxCharacters: options.maxCharacters,
          category: options.category,
          now: ctx.now?.() ?? new Date(),
        })
        const response = await requestJson({
          service: 'exa',
          url: `${config.baseUrl}${SEARCH_PATH}`,
          method: 'POST',
          json: body,
          headers: { 'x-api-key': apiKey, 'accept-encoding': 'identity' },
          schema: ExaSearchResponseSchema,
          timeoutMs,
          ...(options.maxBytes !== undefined && { maxBytes: options.maxBytes }),
          ...(options.retries !== undefined && { retries: options.retries }),
          ...(signals.length > 0 && { signal: signals.length === 1 ? signals[0] : AbortSignal.any(signals) }),
          ...(ctx.deadlineAt !== undefined && { deadlineAt: ctx.deadlineAt }),
          secrets: [apiKey],
          env: ctx.env ?? options.env ?? process.env,
          mapError: (res) => mapExaError(res, [apiKey]),
        })
        const { results, dropped } = mapExaResults(response.data, req, snippetMaxChars)
        const cost = exaCost(response.data)
        const rateLimit = parseExaRateLimit(response.headers)
        return { results, dropped, ...(cost && { cost }), ...(rateLimit && { rateLimit }) }
      } catch (error) {
        if (isProviderError(error)) throw error
        throw new ProviderError(`exa search failed unexpectedly: ${(error as Error)?.message ?? String(error)}`, {
          kind: 'bad_response',
          provider: 'exa',
          cause: error,
        })
      }
    },
  }
}
