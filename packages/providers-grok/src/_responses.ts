import {
  type ParsedProviderRequest,
  ProviderError,
  type ProviderResponse,
  httpUrl,
  safeParseJson,
} from '@search-layer/core'
import { markdownLinksVerified, stripCitationMarkers, toResults } from './_citations.js'
import { estimateGrokCost } from './_cost.js'
import { SERVICE, badShape } from './_errors.js'
import { rateLimitFromHeaders } from './_rate-limit.js'
import type { Cited, GrokBuildSettings, GrokMapOptions } from './_types.js'
import { responsesPrompt } from './prompt.js'
import {
  GrokMessageItemSchema,
  GrokOutputTextSchema,
  GrokResponsesResponseSchema,
  GrokUrlCitationSchema,
} from './schema.js'
import type { GrokResponsesRequest, GrokWebSearchTool } from './request-schema.js'

const MAX_TOOL_DOMAINS = 5

/** Builds the `POST /responses` body: prompt, `web_search` tool with domain filters xAI accepts. Pure. */
export function buildResponsesRequest(
  request: ParsedProviderRequest,
  settings: GrokBuildSettings,
): GrokResponsesRequest {
  const prompt = responsesPrompt(request, settings.now)
  const tool: GrokWebSearchTool = { type: 'web_search' }
  const include = request.includeDomains ?? []
  const exclude = request.excludeDomains ?? []
  // NOTE(grok): xAI takes at most 5 domains per list and not both lists together. Longer or combined
  // filters go in the prompt and are enforced on the cited URLs instead (see `filterByDomain`).
  if (include.length > 0 && include.length <= MAX_TOOL_DOMAINS) tool.allowed_domains = [...include]
  else if (include.length === 0 && exclude.length > 0) tool.excluded_domains = exclude.slice(0, MAX_TOOL_DOMAINS)
  return {
    model: settings.model,
    input: [
      { role: 'system', content: prompt.system },
      { role: 'user', content: prompt.user },
    ],
    tools: [tool],
    store: false,
  }
}

/**
 * Normalises a Responses API body: results from the `url_citation` annotations (real cited URLs, citation
 * order, deduplicated), snippets from the answer sentences they support, the answer with markers stripped.
 * Throws `ProviderError` (`bad_response`, or `upstream` for a failed response).
 */
export function mapResponsesBody(body: unknown, options: GrokMapOptions): ProviderResponse {
  const parsed = safeParseJson(GrokResponsesResponseSchema, body)
  if (!parsed.success) throw badShape('response', parsed.error.issues)
  const data = parsed.data
  if (data.status === 'failed')
    throw new ProviderError('grok reported the response as failed', {
      kind: 'upstream',
      provider: SERVICE,
      retryable: true,
    })
  const texts: string[] = []
  const cited: Cited[] = []
  let dropped = 0
  for (const rawItem of data.output) {
    // Each schema below pins `type` to a literal: other types (web_search_call, reasoning…) are skipped before
    // zod builds an error for them, as it would for every tool call in every response.
    if (!hasType(rawItem, 'message')) continue
    const item = safeParseJson(GrokMessageItemSchema, rawItem)
    if (!item.success) continue
    for (const rawPart of item.data.content ?? []) {
      if (!hasType(rawPart, 'output_text')) continue
      const part = safeParseJson(GrokOutputTextSchema, rawPart)
      if (!part.success || typeof part.data.text !== 'string') continue
      const text = part.data.text
      texts.push(text)
      for (const rawAnnotation of part.data.annotations ?? []) {
        if (!hasType(rawAnnotation, 'url_citation')) continue
        const annotation = safeParseJson(GrokUrlCitationSchema, rawAnnotation)
        if (!annotation.success) continue
        const url = httpUrl(annotation.data.url)
        if (url === null) {
          dropped++
          continue
        }
        cited.push({
          url,
          title: annotation.data.title,
          text,
          start: annotation.data.start_index,
          end: annotation.data.end_index,
        })
      }
    }
  }
  const fullText = texts.join('\n\n')
  if (cited.length === 0) cited.push(...markdownLinksVerified(fullText, data.citations ?? []))
  const results = toResults(cited, options)
  const response: ProviderResponse = { results, dropped }
  const answer = stripCitationMarkers(fullText)
  if (answer) response.answer = answer
  // NOTE(grok): real answers may carry `num_server_side_tools_used` but no `server_side_tool_usage_details`; the
  // `web_search_call` items in `output` still say how many searches were billed.
  const searchCalls = data.output.filter((item) => hasType(item, 'web_search_call')).length
  const cost = estimateGrokCost(options.model, data.usage ?? undefined, searchCalls)
  if (cost) response.cost = cost
  const rateLimit = rateLimitFromHeaders(options.headers ?? {})
  if (rateLimit) response.rateLimit = rateLimit
  return response
}

const hasType = (value: unknown, type: string): boolean =>
  typeof value === 'object' && value !== null && (value as { type?: unknown }).type === type
