import { type Env, type Provider, ProviderError, defineProvider } from '@search-layer/core'
import { requestJson, requestText } from '@search-layer/core/http'
import { buildChatRequest, buildResponsesRequest, mapChatBody, mapGrokError, mapResponsesBody } from './map.js'
import { GROK_DEFAULT_MODEL, grokService } from './service.js'

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

const SERVICE = 'grok'

/**
 * Creates the Grok provider. Results are the URLs Grok actually cited (`url_citation` annotations), never URLs
 * the model wrote on its own. `search()` rejects only with `ProviderError` (any `kind`).
 */
export function createGrokProvider({
  apiKey,
  baseUrl,
  model,
  mode,
  timeoutMs = 30_000,
  retries,
  env,
}: GrokProviderOptions = {}): Provider {
  const modeFor = (callEnv: Env): GrokMode => {
    const value = mode ?? callEnv.GROK_API_MODE
    if (value === undefined || value === '' || value === 'responses') return 'responses'
    if (value === 'chat') return 'chat'
    throw new ProviderError(`GROK_API_MODE must be "responses" or "chat", got "${value.slice(0, 20)}"`, {
      kind: 'config',
      provider: SERVICE,
    })
  }
  return defineProvider({
    definition: grokService,
    overrides: { apiKey, baseUrl, model },
    env,
    async run({ request, apiKey: secret, service, env: callEnv, now, http }) {
      const callMode = modeFor(callEnv)
      const callModel = service.modelSource === 'default' || !service.model ? GROK_DEFAULT_MODEL : service.model
      const common = {
        ...http,
        service: SERVICE,
        method: 'POST' as const,
        headers: { authorization: `Bearer ${secret}` },
        timeoutMs,
        ...(retries !== undefined && { retries }),
        mapError: (res: Parameters<typeof mapGrokError>[0]) => mapGrokError(res, [secret]),
      }
      const mapOptions = { model: callModel, request }
      if (callMode === 'chat') {
        // NOTE(grok): OpenAI-compatible proxies may answer with an SSE body even when not asked to stream.
        const res = await requestText({
          ...common,
          url: `${service.baseUrl}/chat/completions`,
          json: buildChatRequest(request, { model: callModel, now }),
        })
        return mapChatBody(res.text, { ...mapOptions, headers: res.headers })
      }
      const res = await requestJson<unknown>({
        ...common,
        url: `${service.baseUrl}/responses`,
        json: buildResponsesRequest(request, { model: callModel, now }),
      })
      return mapResponsesBody(res.data, { ...mapOptions, headers: res.headers })
    },
  })
}
