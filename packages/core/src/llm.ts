import { z } from 'zod'
import { ConfigError } from './errors.js'
import { requestJson } from './http.js'
import { lazySchema } from './lazy-schema.js'
import type { Env } from './env.js'

/** An OpenAI-compatible chat endpoint: `url` is the API base (`https://host/v1`) or the full `/chat/completions` URL. */
export interface LlmEndpoint {
  url: string
  apiKey?: string
  model: string
}

/** One chat message. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant'
  content: string
}

export interface ChatCompletionOptions {
  messages: readonly ChatMessage[]
  temperature?: number
  maxTokens?: number
  signal?: AbortSignal
  /** Deadline for the whole call, retries included (ms). Default 15 000. */
  timeoutMs?: number
  /** Default 1. */
  retries?: number
  /** Proxy settings are read from here; default `process.env`. */
  env?: Env
}

// Built with the first model call: a search without a model never builds it.
const chatCompletionSchema = lazySchema(() =>
  z.object({
    choices: z.array(z.object({ message: z.object({ content: z.string().nullable() }) })).min(1),
  }),
)

function chatUrl(base: string): string {
  const trimmed = base.replace(/\/+$/, '')
  return trimmed.endsWith('/chat/completions') ? trimmed : `${trimmed}/chat/completions`
}

/**
 * Reads `SEARCH_LAYER_LLM_URL`, `SEARCH_LAYER_LLM_KEY` and `SEARCH_LAYER_LLM_MODEL`; undefined when no URL is set.
 * Throws `ConfigError` when the URL is not http(s) or the model is missing.
 */
export function llmEndpointFromEnv(env: Env = process.env): LlmEndpoint | undefined {
  const url = env.SEARCH_LAYER_LLM_URL?.trim()
  if (!url) return undefined
  let protocol: string
  try {
    protocol = new URL(url).protocol
  } catch {
    protocol = ''
  }
  if (protocol !== 'http:' && protocol !== 'https:')
    throw new ConfigError('SEARCH_LAYER_LLM_URL must be an http(s) URL', { field: 'SEARCH_LAYER_LLM_URL' })
  const model = env.SEARCH_LAYER_LLM_MODEL?.trim()
  if (!model)
    throw new ConfigError('SEARCH_LAYER_LLM_MODEL must name a model when SEARCH_LAYER_LLM_URL is set', {
      field: 'SEARCH_LAYER_LLM_MODEL',
    })
  const apiKey = env.SEARCH_LAYER_LLM_KEY?.trim()
  return apiKey ? { url, apiKey, model } : { url, model }
}

/**
 * One OpenAI-compatible chat completion; resolves to the first choice's text (null when the model sent none).
 * Rejects only with `ProviderError` (provider `llm`); the key never reaches a message.
 */
export async function chatCompletion(endpoint: LlmEndpoint, options: ChatCompletionOptions): Promise<string | null> {
  const { timeoutMs = 15_000, retries = 1 } = options
  const { data } = await requestJson({
    service: 'llm',
    url: chatUrl(endpoint.url),
    method: 'POST',
    headers: { authorization: endpoint.apiKey ? `Bearer ${endpoint.apiKey}` : undefined },
    json: {
      model: endpoint.model,
      messages: options.messages,
      ...(options.temperature !== undefined && { temperature: options.temperature }),
      ...(options.maxTokens !== undefined && { max_tokens: options.maxTokens }),
    },
    schema: chatCompletionSchema(),
    timeoutMs,
    deadlineAt: Date.now() + timeoutMs,
    retries,
    ...(options.signal && { signal: options.signal }),
    ...(options.env && { env: options.env }),
    secrets: [endpoint.apiKey],
  })
  return data.choices[0]?.message.content ?? null
}

/** The first `{…}` block of a model's reply, parsed; models wrap JSON in fences or prose often enough. */
export function extractJsonObject(text: string | null | undefined): unknown {
  if (!text) return undefined
  const start = text.indexOf('{')
  const end = text.lastIndexOf('}')
  if (start < 0 || end <= start) return undefined
  try {
    return JSON.parse(text.slice(start, end + 1))
  } catch {
    return undefined
  }
}
