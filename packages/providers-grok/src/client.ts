import {
  type Env,
  type ParsedProviderRequest,
  type Provider,
  type ProviderContext,
  ProviderError,
  type ProviderRequest,
  ProviderRequestSchema,
  type ProviderResponse,
  type ResolvedConfig,
  formatIssues,
  isProviderError,
  requestJson,
  requestText,
  resolveConfig,
} from '@search-layer/core'
import { buildChatRequest, buildResponsesRequest, mapChatBody, mapGrokError, mapResponsesBody } from './map.js'

/** `responses`: xAI Responses API with server-side web search. `chat`: OpenAI-compatible `/chat/completions` proxies. */
export type GrokMode = 'responses' | 'chat'

/** Options of `createGrokProvider()`. Keys, URL and model given here win over the environment. */
export interface GrokProviderOptions {
  /** Overrides `XAI_API_KEY` / `GROK_API_KEY`. */
  apiKey?: string
  /** Overrides `GROK_API_URL` (default `https://api.x.ai/v1`). */
  baseUrl?: string
  /** Overrides `GROK_MODEL` (default {@link GROK_DEFAULT_MODEL}). */
  model?: string
  /** Overrides `GROK_API_MODE`. Default `responses`. */
  mode?: GrokMode
  /** Time allowed per attempt (ms). Default 30 000: a search-and-answer turn takes far longer than a plain search API. */
  timeoutMs?: number
  /** Retries after the first attempt for retryable failures. Default 2. */
  retries?: number
  /** Where keys are read from when the call context has no `env`; default `process.env`. */
  env?: Env
}

/**
 * The model used when neither `model` nor `GROK_MODEL` is set: a current xAI model with server-side web search.
 * (`grok-4-fast*` and `grok-4-1-fast*` were retired on 2026-05-15; xAI names `grok-4.3` as their replacement.)
 */
export const GROK_DEFAULT_MODEL = 'grok-4.3'

const SERVICE = 'grok'

/**
 * Creates the Grok provider. Results are the URLs Grok actually cited (`url_citation` annotations), never URLs
 * the model wrote on its own. `search()` rejects only with `ProviderError` (any `kind`).
 */
export function createGrokProvider({ apiKey, baseUrl, model, mode, timeoutMs = 30_000, retries, env: optionsEnv }: GrokProviderOptions = {}): Provider {
  const config = (env: Env): ResolvedConfig['grok'] => {
    try {
      return resolveConfig({ overrides: { grok: { apiKey, baseUrl, model } }, env }).grok
    } catch (error) {
      throw new ProviderError(`grok configuration is invalid: ${(error as Error).message}`, { kind: 'config', provider: SERVICE, cause: error, secrets: [apiKey] })
    }
  }
  const modeFor = (env: Env): GrokMode => {
    const value = mode ?? env.GROK_API_MODE
    if (value === undefined || value === '' || value === 'responses') return 'responses'
    if (value === 'chat') return 'chat'
    throw new ProviderError(`GROK_API_MODE must be "responses" or "chat", got "${value.slice(0, 20)}"`, { kind: 'config', provider: SERVICE })
  }

  return {
    name: 'grok',
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
        const env = ctx.env ?? optionsEnv ?? process.env
        const service = config(env)
        const callMode = modeFor(env)
        key = service.apiKey
        if (!key)
          throw new ProviderError('grok API key is missing: set XAI_API_KEY (or GROK_API_KEY, or pass apiKey to createGrokProvider)', {
            kind: 'config',
            provider: SERVICE,
          })
        const secret = key
        const callModel = service.modelSource === 'default' ? GROK_DEFAULT_MODEL : service.model
        const now = ctx.now?.() ?? new Date()
        const signals = [request.signal, ctx.signal].filter((s): s is AbortSignal => s !== undefined)
        const common = {
          service: SERVICE,
          headers: { authorization: `Bearer ${secret}` },
          timeoutMs,
          ...(retries !== undefined && { retries }),
          ...(signals.length > 0 && { signal: signals.length === 1 ? signals[0] : AbortSignal.any(signals) }),
          ...(ctx.deadlineAt !== undefined && { deadlineAt: ctx.deadlineAt }),
          secrets: [secret],
          mapError: (res: Parameters<typeof mapGrokError>[0]) => mapGrokError(res, [secret]),
        }
        const mapOptions = { model: callModel, request: parsed }
        if (callMode === 'chat') {
          // NOTE(grok): OpenAI-compatible proxies may answer with an SSE body even when not asked to stream.
          const res = await requestText({ ...common, url: `${service.baseUrl}/chat/completions`, method: 'POST', json: buildChatRequest(parsed, { model: callModel, now }), env })
          return mapChatBody(res.text, { ...mapOptions, headers: res.headers })
        }
        const res = await requestJson<unknown>({
          ...common,
          url: `${service.baseUrl}/responses`,
          method: 'POST',
          json: buildResponsesRequest(parsed, { model: callModel, now }),
          env,
        })
        return mapResponsesBody(res.data, { ...mapOptions, headers: res.headers })
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
  throw new ProviderError(`grok request is invalid: ${issues}`, { kind: 'config', provider: SERVICE, retryable: false })
}

// Last line of defence: whatever escaped becomes a ProviderError with the key scrubbed.
function asProviderError(error: unknown, key: string | undefined): ProviderError {
  if (isProviderError(error)) return error
  return new ProviderError(`grok call failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`, {
    kind: 'bad_response',
    provider: SERVICE,
    cause: error,
    secrets: [key],
  })
}
