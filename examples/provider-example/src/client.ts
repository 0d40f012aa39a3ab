import { type Env, type Provider, type ProviderResponse, defineProvider, httpUrl } from '@search-layer/core'
import { requestJson } from '@search-layer/core/http'
import { exampleService } from './service.js'
import { ExampleSearchResponseSchema } from './schema.js'

/** What one request costs (the example API bills per request): each answer's estimate, and the definition's. */
export const EXAMPLE_USD_PER_CALL = 0.001

/** Options of `createExampleProvider`; keys and URLs given here win over the environment and config file. */
export interface ExampleProviderOptions {
  /** Overrides `EXAMPLE_SEARCH_API_KEY`. */
  apiKey?: string
  /** Overrides `EXAMPLE_SEARCH_URL`; `/search` is appended. */
  baseUrl?: string
  /** Time allowed per attempt (ms). Default 8000. */
  timeoutMs?: number
  /** Retries after the first attempt for retryable failures. Default core's (2). */
  retries?: number
  /** Where keys are read when the call context has none; default `process.env`. */
  env?: Env
}

/**
 * Creates the example provider. `defineProvider` does the shared work (key and URL at call time, request
 * validation, signals, every failure as a `ProviderError`); this function only speaks the vendor's API.
 */
export function createExampleProvider(options: ExampleProviderOptions = {}): Provider {
  const { timeoutMs = 8000 } = options
  return defineProvider({
    definition: exampleService,
    overrides: { apiKey: options.apiKey, baseUrl: options.baseUrl },
    env: options.env,
    async run({ request, apiKey, service, http }): Promise<ProviderResponse> {
      const response = await requestJson({
        ...http,
        service: exampleService.id,
        url: `${service.baseUrl}/search`,
        method: 'GET',
        query: { q: request.query, n: String(request.num) },
        headers: { authorization: `Bearer ${apiKey}` },
        schema: ExampleSearchResponseSchema,
        timeoutMs,
        ...(options.retries !== undefined && { retries: options.retries }),
      })
      const results = response.data.items.flatMap((item, i) => {
        const url = httpUrl(item.link)
        if (!url) return []
        return [
          {
            title: item.title,
            url,
            snippet: item.summary,
            publishedAt: item.date ?? null,
            provider: exampleService.id,
            rank: i + 1,
          },
        ]
      })
      return {
        results,
        dropped: response.data.items.length - results.length,
        cost: { usd: EXAMPLE_USD_PER_CALL, basis: 'estimated' },
      }
    },
  })
}
