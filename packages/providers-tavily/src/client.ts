import { type Env, type Provider, defineProvider } from '@search-layer/core'
import { requestJson } from '@search-layer/core/http'
import { tavilyService } from './service.js'
import {
  type TavilySearchDepth,
  type TavilyTopic,
  buildTavilyRequest,
  mapTavilyError,
  mapTavilyResponse,
} from './map.js'

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
  env,
  includeAnswer = false,
  searchDepth = 'basic',
  topic = 'general',
}: TavilyProviderOptions = {}): Provider {
  return defineProvider({
    definition: tavilyService,
    overrides: { apiKey, baseUrl },
    env,
    async run({ request, apiKey: secret, service, now, http }) {
      const response = await requestJson<unknown>({
        ...http,
        service: SERVICE,
        url: `${service.baseUrl}/search`,
        method: 'POST',
        // NOTE(tavily): the key travels only as a Bearer header, never in the body (the legacy `api_key` field).
        headers: { authorization: `Bearer ${secret}` },
        json: buildTavilyRequest(request, { searchDepth, topic, includeAnswer }),
        timeoutMs,
        ...(retries !== undefined && { retries }),
        mapError: (res) => mapTavilyError(res, [secret]),
      })
      return mapTavilyResponse(response.data, { searchDepth, headers: response.headers, nowMs: now.getTime() })
    },
  })
}
