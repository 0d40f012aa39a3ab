import {
  type ParsedProviderRequest,
  ProviderError,
  type ProviderResponse,
  type SearchResult,
  httpUrl,
  isoDate,
  plainText,
} from '@search-layer/core'
import { estimateGrokCost } from './_cost.js'
import { SERVICE, badShape } from './_errors.js'
import { extractJsonResults } from './_json-results.js'
import { hasEventStreamField } from './_markdown-scan.js'
import { rateLimitFromHeaders } from './_rate-limit.js'
import type { GrokBuildSettings, GrokMapOptions } from './_types.js'
import { canonical, filterByDomain, usableTitle } from './_urls.js'
import { chatPrompt } from './prompt.js'
import { grokChatCompletionSchema, grokChatResultSchema } from './schema.js'
import type { GrokChatRequest } from './request-schema.js'

/** Builds the `POST /chat/completions` body of the fallback mode. Pure. */
export function buildChatRequest(request: ParsedProviderRequest, settings: GrokBuildSettings): GrokChatRequest {
  const prompt = chatPrompt(request, settings.now)
  return {
    model: settings.model,
    messages: [
      { role: 'system', content: prompt.system },
      { role: 'user', content: prompt.user },
    ],
    temperature: 0,
    stream: false,
  }
}

/** The assistant text of a chat completion body, plain JSON or SSE (`data: {...}` lines). Throws `bad_response`. */
export function readChatBody(text: string): {
  content: string
  usage?: { prompt_tokens?: number | null; completion_tokens?: number | null }
} {
  if (hasEventStreamField(text) && !/^\s*[{[]/.test(text)) {
    let content = ''
    let usage: { prompt_tokens?: number | null; completion_tokens?: number | null } | undefined
    let chunks = 0
    for (const line of text.split(/\r?\n/)) {
      const m = /^data:\s?(.*)$/.exec(line)
      if (!m || m[1]!.trim() === '[DONE]') continue
      let json: unknown
      try {
        json = JSON.parse(m[1]!)
      } catch {
        continue
      }
      const chunk = grokChatCompletionSchema().safeParse(json)
      if (!chunk.success) continue
      chunks++
      const choice = chunk.data.choices?.[0]
      content += choice?.delta?.content ?? choice?.message?.content ?? ''
      if (chunk.data.usage) usage = chunk.data.usage
    }
    if (chunks === 0)
      throw new ProviderError('grok sent an event stream without any completion chunk', {
        kind: 'bad_response',
        provider: SERVICE,
      })
    return { content, ...(usage && { usage }) }
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    const kind = /^\s*</.test(text) ? 'HTML' : text.length === 0 ? 'an empty body' : 'malformed JSON'
    throw new ProviderError(`grok returned ${kind} instead of a chat completion (${text.length} bytes)`, {
      kind: 'bad_response',
      provider: SERVICE,
    })
  }
  const parsed = grokChatCompletionSchema().safeParse(json)
  if (!parsed.success) throw badShape('chat completion', parsed.error.issues)
  const choice = parsed.data.choices?.[0]
  if (!choice)
    throw new ProviderError('grok chat completion had no choices', { kind: 'bad_response', provider: SERVICE })
  return {
    content: choice.message?.content ?? choice.delta?.content ?? '',
    ...(parsed.data.usage && { usage: parsed.data.usage }),
  }
}

/** Normalises a chat-fallback body (JSON or SSE) into a `ProviderResponse`; only http(s) URLs with a host are kept. */
export function mapChatBody(text: string, options: GrokMapOptions): ProviderResponse {
  const { content, usage } = readChatBody(text)
  const list = extractJsonResults(content)
  if (list === null)
    throw new ProviderError('grok chat answer contained no JSON result list', {
      kind: 'bad_response',
      provider: SERVICE,
    })
  const results: SearchResult[] = []
  const seen = new Set<string>()
  let dropped = 0
  for (const raw of list) {
    const item = grokChatResultSchema().safeParse(raw)
    const url = item.success ? httpUrl(item.data.url ?? item.data.link) : null
    if (!item.success || url === null) {
      dropped++
      continue
    }
    const key = canonical(url)
    if (seen.has(key)) continue
    seen.add(key)
    if (options.request && !filterByDomain(url, options.request)) continue
    results.push({
      title: usableTitle(item.data.title, url),
      url,
      snippet: plainText(item.data.snippet ?? item.data.description ?? item.data.summary),
      publishedAt: isoDate(
        item.data.published_at ?? item.data.published_date ?? item.data.publishedAt ?? item.data.date,
      ),
      provider: 'grok',
      rank: results.length + 1,
    })
    if (options.request && results.length >= options.request.num) break
  }
  const response: ProviderResponse = { results, dropped }
  const cost = estimateGrokCost(
    options.model,
    usage && { input_tokens: usage.prompt_tokens, output_tokens: usage.completion_tokens },
  )
  if (cost) response.cost = cost
  const rateLimit = rateLimitFromHeaders(options.headers ?? {})
  if (rateLimit) response.rateLimit = rateLimit
  return response
}
