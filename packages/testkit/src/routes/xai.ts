import type { ServerResponse } from 'node:http'
import type { Reply, RouteContext, ServiceRoutes } from '../_types.js'
import { bearer, digest, field, hashInt, maskKey, str, strList } from '../_util.js'
import { corpusFor, snippet, vendorUrl } from '../corpus.js'

// NOTE(grok): xAI errors are `{code, error}` where `code` is the gRPC status text, and a bad key is a 400.
const ERRORS: Record<number, { code: string; error: string }> = {
  400: { code: 'Client specified an invalid argument', error: 'Invalid request.' },
  401: { code: 'The request does not have valid authentication credentials', error: 'Unauthenticated.' },
  403: {
    code: 'The caller does not have permission to execute the specified operation',
    error: 'Your newly created team does not have any credits yet. You can purchase credits on https://console.x.ai.',
  },
  404: {
    code: 'Some requested entity was not found',
    error: 'The model does not exist or your team does not have access to it.',
  },
  410: {
    code: 'The requested resource is no longer available',
    error:
      'Live search is deprecated. Please switch to the Agent Tools API: https://docs.x.ai/docs/guides/tools/overview',
  },
  422: {
    code: 'Client specified an invalid argument',
    error: 'Failed to deserialize the JSON body into the target type.',
  },
  429: {
    code: 'Some resource has been exhausted',
    error:
      'Your team has either used all available credits or reached its monthly spending limit. To continue making API requests, please purchase more credits or raise your spending limit.',
  },
  500: { code: 'Internal error', error: 'Internal server error.' },
  502: { code: 'Internal error', error: 'Bad gateway.' },
  503: {
    code: 'The service is currently unavailable',
    error: 'The service is currently unavailable. Please try again later.',
  },
}

function errorReply(status: number, error?: string): Reply {
  const known = ERRORS[status] ?? { code: 'Unknown error', error: 'Unknown error.' }
  return { status, body: { code: known.code, error: error ?? known.error } }
}

function authError(given: string | undefined): Reply {
  const shown = given ? maskKey(given) : ''
  return errorReply(400, `Incorrect API key provided: ${shown}. You can obtain an API key from https://console.x.ai.`)
}

/** The user's text from `input` (string or messages) or chat `messages`. */
function userText(value: unknown): string | undefined {
  if (typeof value === 'string') return value
  if (!Array.isArray(value)) return undefined
  for (let i = value.length - 1; i >= 0; i--) {
    const m = value[i]
    if (field(m, 'role') !== 'user') continue
    const content = field(m, 'content')
    if (typeof content === 'string') return content
    if (Array.isArray(content)) {
      const parts = content.map((p) => str(p, 'text')).filter((t): t is string => typeof t === 'string')
      if (parts.length) return parts.join('\n')
    }
  }
  return undefined
}

/**
 * The search query the model "issues": a tag-delimited block (clients wrap untrusted queries as
 * `<search_query>…</search_query>`, and a real model searches for the content, not the tags), else the
 * first line of the prompt without boilerplate.
 */
function searchQuery(text: string): string {
  const tagged = /<([a-z][a-z0-9_-]*)>([\s\S]*?)<\/\1>/i.exec(text)
  if (tagged?.[2]?.trim()) return tagged[2].trim().slice(0, 200)
  const line = text.split('\n').find((l) => l.trim()) ?? text
  return line
    .replace(/^\s*(please\s+)?(search( the web)?( for)?|find|look up)\s*:?\s*/i, '')
    .trim()
    .slice(0, 200)
}

function responses(ctx: RouteContext): Reply {
  const body = ctx.body
  if (field(body, 'search_parameters') !== undefined) return errorReply(410)
  const model = str(body, 'model')
  if (!model) return errorReply(422, 'Failed to deserialize the JSON body into the target type: missing field `model`.')
  const text = userText(field(body, 'input'))
  if (!text) return errorReply(422, 'Failed to deserialize the JSON body into the target type: input: invalid type.')
  const tools = Array.isArray(field(body, 'tools')) ? (field(body, 'tools') as unknown[]) : []
  const webTool = tools.find((t) => str(t, 'type') === 'web_search')
  // NOTE(grok): xAI takes `allowed_domains` / `excluded_domains` directly on the tool (max 5 each), unlike
  // OpenAI's nested `filters`; the nested form is still read for OpenAI-shaped clients.
  const filters = field(webTool, 'filters')
  const allowed = strList(field(webTool, 'allowed_domains')) ?? strList(field(filters, 'allowed_domains'))
  const excluded = strList(field(webTool, 'excluded_domains')) ?? strList(field(filters, 'excluded_domains'))
  if (allowed?.length && excluded?.length)
    return errorReply(400, 'Only one of allowed_domains and excluded_domains can be set.')
  const query = searchQuery(text)
  const id = digest(`grok-responses\u0000${ctx.rawBody.toString('utf8')}`, 32)
  const created = Math.floor(ctx.now.getTime() / 1000)
  const output: unknown[] = []
  let answer: string
  const annotations: unknown[] = []
  let sources = 0
  if (webTool) {
    const docs = corpusFor(query, {
      vendor: 'grok',
      count: 6,
      now: ctx.now,
      ...(allowed?.length && { includeDomains: allowed }),
      ...(excluded?.length && { excludeDomains: excluded }),
    })
    sources = docs.length
    output.push({
      type: 'web_search_call',
      id: `ws_${id.slice(0, 24)}`,
      status: 'completed',
      action: { type: 'search', query, sources: [] },
    })
    answer = `Here is what current sources say about ${query}.\n\n`
    docs.forEach((doc, i) => {
      const url = vendorUrl(doc.url, 'grok')
      answer += `- **${doc.title}**: ${snippet(doc, query, 200)} `
      const marker = `[[${i + 1}]](${url})`
      annotations.push({
        type: 'url_citation',
        url,
        title: String(i + 1),
        start_index: answer.length,
        end_index: answer.length + marker.length,
      })
      answer += `${marker}\n`
    })
    answer += `\nIn short, the top sources agree on the essentials; see the cited pages for details.`
  } else {
    answer = `I can answer about ${query} from my training data, but web search was not enabled for this request.`
  }
  output.push({
    type: 'message',
    id: `msg_${id.slice(0, 24)}`,
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text: answer, logprobs: [], annotations }],
  })
  const inputTokens = 180 + Math.ceil(text.length / 4)
  const outputTokens = Math.ceil(answer.length / 4)
  return {
    status: 200,
    body: {
      id,
      object: 'response',
      created_at: created,
      model,
      status: 'completed',
      output,
      parallel_tool_calls: true,
      tools,
      usage: {
        input_tokens: inputTokens,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: outputTokens,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: inputTokens + outputTokens,
        num_sources_used: sources,
        num_server_side_tools_used: webTool ? 1 : 0,
        server_side_tool_usage_details: {
          web_search_calls: webTool ? 1 : 0,
          x_search_calls: 0,
          code_interpreter_calls: 0,
          file_search_calls: 0,
        },
      },
    },
  }
}

function chatContent(query: string, model: string, ctx: RouteContext): string {
  const docs = corpusFor(query, { vendor: 'grok', count: 5, now: ctx.now })
  const items = docs.map((doc) => ({
    title: doc.title,
    url: vendorUrl(doc.url, 'grok'),
    snippet: snippet(doc, query, 200),
    published_date: doc.publishedAt.slice(0, 10),
  }))
  // NOTE(grok): reasoning models may prefix their answer with a <think> block the client must strip.
  const think = /reasoning/i.test(model)
    ? `<think>\nThe user wants sources about ${query}. I will list the most relevant pages as JSON.\n</think>\n\n`
    : ''
  return `${think}Here are the most relevant results I found for "${query}":\n\n\`\`\`json\n${JSON.stringify(items, null, 2)}\n\`\`\`\n\nLet me know if you want me to dig deeper into any of these.`
}

function chat(ctx: RouteContext): Reply {
  const body = ctx.body
  if (field(body, 'search_parameters') !== undefined) return errorReply(410)
  const model = str(body, 'model')
  if (!model) return errorReply(422, 'Failed to deserialize the JSON body into the target type: missing field `model`.')
  const text = userText(field(body, 'messages'))
  if (!text) return errorReply(422, 'Failed to deserialize the JSON body into the target type: messages: invalid type.')
  const content = chatContent(searchQuery(text), model, ctx)
  const id = digest(`grok-chat\u0000${ctx.rawBody.toString('utf8')}`, 32)
  const created = Math.floor(ctx.now.getTime() / 1000)
  const promptTokens = 40 + Math.ceil(text.length / 4)
  const completionTokens = Math.ceil(content.length / 4)
  if (field(body, 'stream') === true)
    return { status: 200, headers: sseHeaders(), stream: (res) => streamChat(res, { id, created, model, content }) }
  return {
    status: 200,
    body: {
      id,
      object: 'chat.completion',
      created,
      model,
      choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, finish_reason: 'stop' }],
      usage: {
        prompt_tokens: promptTokens,
        completion_tokens: completionTokens,
        total_tokens: promptTokens + completionTokens,
        prompt_tokens_details: { text_tokens: promptTokens, audio_tokens: 0, image_tokens: 0, cached_tokens: 0 },
        completion_tokens_details: {
          reasoning_tokens: 0,
          audio_tokens: 0,
          accepted_prediction_tokens: 0,
          rejected_prediction_tokens: 0,
        },
      },
      system_fingerprint: `fp_${digest(model, 10)}`,
    },
  }
}

/** Headers of an OpenAI-style server-sent event stream. */
export function sseHeaders(): Record<string, string> {
  return { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' }
}

/** Streams a chat completion as OpenAI-style SSE chunks ending in `data: [DONE]`. */
function streamChat(res: ServerResponse, c: { id: string; created: number; model: string; content: string }): void {
  const chunk = (delta: Record<string, unknown>, finish: string | null) =>
    `data: ${JSON.stringify({ id: c.id, object: 'chat.completion.chunk', created: c.created, model: c.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`
  res.write(chunk({ role: 'assistant', content: '' }, null))
  // Split at a deterministic pseudo-random size so clients must reassemble pieces that cut words and JSON.
  const size = 12 + (hashInt(c.content) % 20)
  for (let i = 0; i < c.content.length; i += size) res.write(chunk({ content: c.content.slice(i, i + size) }, null))
  res.write(chunk({}, 'stop'))
  res.end('data: [DONE]\n\n')
}

/** xAI: `POST /v1/responses` (web_search tool with url_citation annotations) and `POST /v1/chat/completions`. */
export function xaiRoutes(isKey: (given: string | undefined) => boolean): ServiceRoutes {
  return {
    handle(ctx) {
      const given = bearer(ctx.headers)
      if (!isKey(given)) return authError(given)
      if (ctx.method !== 'POST') return errorReply(404, `No route for ${ctx.method} ${ctx.path}.`)
      if (typeof ctx.body !== 'object' || ctx.body === null)
        return errorReply(400, 'Request body must be a JSON object.')
      if (ctx.path === '/v1/responses') return responses(ctx)
      if (ctx.path === '/v1/chat/completions') return chat(ctx)
      return errorReply(404, `No route for ${ctx.method} ${ctx.path}.`)
    },
    error(status, code) {
      // NOTE(grok): xAI answers 429 both for request-rate limits and for exhausted credits / spending limit.
      if (status === 429 && code === 'rate_limited')
        return errorReply(429, 'Too many requests. Please slow down and retry later.')
      return errorReply(status)
    },
  }
}
