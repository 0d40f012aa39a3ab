import type { Reply, RouteContext, ServiceRoutes } from '../_types.js'
import { bearer, digest, field, str } from '../_util.js'
import type { LlmHandler, LlmMessage, LlmReply, LlmScriptStep, LlmSeenToolCall, LlmToolCall } from '../types.js'
import { type Completion, completionBody, type SentToolCall, streamCompletion, type Usage } from './llm-completion.js'
import { sseHeaders } from './xai.js'

function errorReply(status: number, message: string, type: string, code: string | null): Reply {
  return { status, body: { error: { message, type, param: null, code } } }
}

// NOTE(llm): OpenAI's error envelope; most OpenAI-compatible servers copy it.
const ERRORS: Record<number, [string, string, string | null]> = {
  400: ['Invalid request.', 'invalid_request_error', null],
  401: [
    'Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.',
    'invalid_request_error',
    'invalid_api_key',
  ],
  403: ['You are not allowed to access this model.', 'invalid_request_error', 'model_not_found'],
  404: ['The model does not exist or you do not have access to it.', 'invalid_request_error', 'model_not_found'],
  429: ['Rate limit reached for requests. Please try again in 1s.', 'requests', 'rate_limit_exceeded'],
  500: ['The server had an error while processing your request. Sorry about that!', 'server_error', null],
  502: ['Bad gateway.', 'server_error', null],
  503: ['The engine is currently overloaded, please try again later.', 'server_error', null],
}

function knownError(status: number): Reply {
  const [message, type, code] = ERRORS[status] ?? ['Unexpected error.', 'server_error', null]
  return errorReply(status, message, type, code)
}

/**
 * Who answers the chat requests: a handler set with `respond`, or a script of steps, one per request. `turn`
 * counts the requests answered since either was set.
 */
export class LlmConversation {
  private handler: LlmHandler | null = null
  private turn = 0

  respond(handler: LlmHandler | null): void {
    this.handler = handler
    this.turn = 0
  }

  script(steps: readonly LlmScriptStep[]): void {
    const list = [...steps]
    this.respond((request) => {
      const step = list[request.turn]
      if (step === undefined)
        return errorReply(
          500,
          `The emulator's LLM script has no reply left: ${list.length} scripted, request ${request.turn + 1}.`,
          'server_error',
          null,
        ) as { status: number; body: unknown }
      return typeof step === 'function' ? step(request) : step
    })
  }

  /** The handler for the next request and its turn, or null for the default reply. */
  next(): { handler: LlmHandler; turn: number } | null {
    return this.handler ? { handler: this.handler, turn: this.turn++ } : null
  }
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content
  return Array.isArray(content) ? content.map((p) => str(p, 'text') ?? '').join('') : ''
}

function seenToolCalls(value: unknown): LlmSeenToolCall[] | undefined {
  if (!Array.isArray(value)) return undefined
  return value.map((call) => {
    const fn = field(call, 'function')
    const args = field(fn, 'arguments')
    return {
      id: str(call, 'id') ?? '',
      name: str(fn, 'name') ?? '',
      arguments: typeof args === 'string' ? args : JSON.stringify(args ?? null),
    }
  })
}

function messagesOf(body: unknown): LlmMessage[] | undefined {
  const raw = field(body, 'messages')
  if (!Array.isArray(raw)) return undefined
  return raw.map((m) => {
    const toolCalls = seenToolCalls(field(m, 'tool_calls'))
    const toolCallId = str(m, 'tool_call_id')
    return {
      role: str(m, 'role') ?? 'user',
      content: textOf(field(m, 'content')),
      ...(toolCalls && { toolCalls }),
      ...(toolCallId !== undefined && { toolCallId }),
    }
  })
}

function toolsOf(body: unknown): string[] {
  const raw = field(body, 'tools')
  if (!Array.isArray(raw)) return []
  return raw.map((t) => str(field(t, 'function'), 'name')).filter((n): n is string => n !== undefined)
}

function defaultReply(messages: LlmMessage[]): string {
  const last = [...messages].reverse().find((m) => m.role === 'user')?.content ?? ''
  const words = last.split(/\s+/).filter(Boolean).length
  return `Acknowledged: ${words} word${words === 1 ? '' : 's'} received (ref ${digest(last, 8)}).`
}

const tokens = (text: string): number => Math.ceil(text.length / 4)

/** Token counts as a tokenizer would roughly give them: a token per four characters, plus OpenAI's framing. */
function usageOf(messages: LlmMessage[], body: unknown, content: string, calls: SentToolCall[]): Usage {
  const tools = field(body, 'tools')
  const prompt = messages.reduce(
    (n, m) => n + 4 + tokens(m.content) + (m.toolCalls ?? []).reduce((k, t) => k + tokens(t.name + t.arguments), 0),
    3 + (Array.isArray(tools) ? tokens(JSON.stringify(tools)) : 0),
  )
  const completion = tokens(content) + calls.reduce((n, t) => n + 1 + tokens(t.name + t.arguments), 0)
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion }
}

function sentCalls(calls: readonly LlmToolCall[], id: string): SentToolCall[] {
  return calls.map((call, i) => ({
    id: call.id ?? `call_${digest(`${id}\u0000${i}`, 24)}`,
    name: call.name,
    arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {}),
  }))
}

// Unref'd: a reply still waiting when a test ends does not hold the process.
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref())

async function completion(ctx: RouteContext, conversation: LlmConversation): Promise<Reply> {
  const model = str(ctx.body, 'model')
  if (!model) return errorReply(400, 'you must provide a model parameter', 'invalid_request_error', null)
  const messages = messagesOf(ctx.body)
  if (!messages)
    return errorReply(
      400,
      "Missing required parameter: 'messages'.",
      'invalid_request_error',
      'missing_required_parameter',
    )
  const stream = field(ctx.body, 'stream') === true
  const next = conversation.next()
  const reply: LlmReply = next
    ? next.handler({ messages, model, body: ctx.body, tools: toolsOf(ctx.body), turn: next.turn, stream })
    : defaultReply(messages)
  if (typeof reply === 'object' && 'status' in reply) return { status: reply.status, body: reply.body }
  const { content = '', toolCalls = [], latencyMs = 0 } = typeof reply === 'string' ? { content: reply } : reply
  if (latencyMs > 0) await sleep(latencyMs)
  const id = `chatcmpl-${digest(`llm\u0000${ctx.rawBody.toString('utf8')}`, 29)}`
  const calls = sentCalls(toolCalls, id)
  const c: Completion = {
    id,
    created: Math.floor(ctx.now.getTime() / 1000),
    model,
    content,
    toolCalls: calls,
    usage: usageOf(messages, ctx.body, content, calls),
  }
  if (!stream) return { status: 200, body: completionBody(c) }
  const includeUsage = field(field(ctx.body, 'stream_options'), 'include_usage') === true
  return { status: 200, headers: sseHeaders(), stream: (res) => streamCompletion(res, c, includeUsage) }
}

/**
 * A generic OpenAI-compatible `POST /v1/chat/completions`: a default echo, or what `conversation` scripts — text,
 * tool calls (JSON or SSE), raw errors. A wrong key gets OpenAI's 401.
 */
export function llmRoutes(key: () => string, conversation: LlmConversation): ServiceRoutes {
  return {
    handle(ctx) {
      if (bearer(ctx.headers) !== key()) return knownError(401)
      if (ctx.method === 'POST' && ctx.path === '/v1/chat/completions') {
        if (typeof ctx.body !== 'object' || ctx.body === null)
          return errorReply(400, 'We could not parse the JSON body of your request.', 'invalid_request_error', null)
        return completion(ctx, conversation)
      }
      return errorReply(404, `Invalid URL (${ctx.method} ${ctx.path})`, 'invalid_request_error', null)
    },
    error(status) {
      return knownError(status)
    },
  }
}
