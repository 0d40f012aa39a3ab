import {
  type Env,
  type ParsedProviderRequest,
  type Provider,
  type ProviderContext,
  ProviderError,
  type ProviderRequest,
  ProviderRequestSchema,
  type ProviderResponse,
  type ServiceConfig,
  formatIssues,
  isProviderError,
  requestJson,
  resolveConfig,
} from '@search-layer/core'
import { type TavilySearchDepth, type TavilyTopic, buildTavilyRequest, mapTavilyError, mapTavilyResponse } from './map.js'

/** Options of `createTavilyProvider()`. Keys and URLs given here win over the environment. */
export interface TavilyProviderOptions {
  /** Overrides `TAVILY_API_KEY`. */
  apiKey?: string
  /** Overrides `TAVILY_API_URL` (default `https://api.tavily.com`). */
  baseUrl?: string
  /** Time allowed per attempt (ms). Default 8000. */
  timeoutMs?: number
  /** Retries after the first attempt for retryable failures. Default 2. */
  retries?: number
  /** Where keys are read from when the call context has no `env`; default `process.env`. */
  env?: Env
  /** Ask Tavily for its AI answer (`include_answer`); the engine turns this on in answer mode. Default false. */
  includeAnswer?: boolean
  /** `basic` (1 credit) or `advanced` (2 credits). Default `basic`. */
  searchDepth?: TavilySearchDepth
  /** `general` or `news` (news uses `days` for freshness and ignores `country`). Default `general`. */
  topic?: TavilyTopic
}

const SERVICE = 'tavily'

/**
 * Creates the Tavily provider (`POST {TAVILY_API_URL}/search`, key as a Bearer header).
 * `search()` rejects only with `ProviderError`: `config`, `auth`, `quota`, `rate_limited`, `timeout`,
 * `upstream`, `bad_response` or `network`.
 */
export function createTavilyProvider({
  apiKey,
  baseUrl,
  timeoutMs = 8000,
  retries,
  env: optionsEnv,
  includeAnswer = false,
  searchDepth = 'basic',
  topic = 'general',
}: TavilyProviderOptions = {}): Provider {
  const config = (env: Env): ServiceConfig => {
    try {
      return resolveConfig({ overrides: { tavily: { apiKey, baseUrl } }, env }).tavily
    } catch (error) {
      throw new ProviderError(`tavily configuration is invalid: ${(error as Error).message}`, {
        kind: 'config',
        provider: SERVICE,
        cause: error,
        secrets: [apiKey],
      })
    }
  }

  return {
    name: 'tavily',
    isConfigured(env?: Env): boolean {
      try {
        return Boolean(config(env ?? optionsEnv ?? process.env).apiKey)
      } catch {
        return false
      }
    },
    async search(request: ProviderRequest, ctx: ProviderContext = {}): Promise<ProviderResponse> {
      let key: string | undefined
      try {
        const parsed = parseRequest(request)
        const service = config(ctx.env ?? optionsEnv ?? process.env)
        key = service.apiKey
        if (!key)
          throw new ProviderError('tavily API key is missing: set TAVILY_API_KEY (or pass apiKey to createTavilyProvider)', {
            kind: 'config',
            provider: SERVICE,
          })
        const secret = key
        const signals = [request.signal, ctx.signal].filter((s): s is AbortSignal => s !== undefined)
        const response = await requestJson<unknown>({
          service: SERVICE,
          url: `${service.baseUrl}/search`,
          method: 'POST',
          // NOTE(tavily): the key travels only as a Bearer header, never in the body (the legacy `api_key` field).
          headers: { authorization: `Bearer ${secret}` },
          json: buildTavilyRequest(parsed, { searchDepth, topic, includeAnswer }),
          timeoutMs,
          ...(retries !== undefined && { retries }),
          ...(signals.length > 0 && { signal: signals.length === 1 ? signals[0] : AbortSignal.any(signals) }),
          ...(ctx.deadlineAt !== undefined && { deadlineAt: ctx.deadlineAt }),
          secrets: [secret],
          mapError: (res) => mapTavilyError(res, [secret]),
          env: ctx.env ?? optionsEnv ?? process.env,
        })
        return mapTavilyResponse(response.data, { searchDepth, headers: response.headers })
      } catch (error) {
        throw asProviderError(error, key)
      }
    },
  }
}

function parseRequest(request: ProviderRequest): ParsedProviderRequest {
  const parsed = ProviderRequestSchema.safeParse(request)
  if (parsed.success) return parsed.data
  const issues = formatIssues(parsed.error)
    .map((i) => `${i.path}: ${i.message}`)
    .join('; ')
  throw new ProviderError(`tavily request is invalid: ${issues}`, { kind: 'config', provider: SERVICE, retryable: false })
}

// Last line of defence: whatever escaped becomes a ProviderError with the key scrubbed.
function asProviderError(error: unknown, key: string | undefined): ProviderError {
  if (isProviderError(error)) return error
  return new ProviderError(`tavily call failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`, {
    kind: 'bad_response',
    provider: SERVICE,
    cause: error,
    secrets: [key],
  })
}
