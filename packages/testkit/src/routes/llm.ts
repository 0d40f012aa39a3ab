import type { Reply, RouteContext, ServiceRoutes } from '../_types.js'
import { bearer, digest, field, str } from '../_util.js'
import type { LlmHandler } from '../types.js'
import { sseHeaders, streamChat } from './xai.js'

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

function messagesOf(body: unknown): { role: string; content: string }[] | undefined {
  const raw = field(body, 'messages')
  if (!Array.isArray(raw)) return undefined
  return raw.map((m) => {
    const content = field(m, 'content')
    const text =
      typeof content === 'string'
        ? content
        : Array.isArray(content)
          ? content.map((p) => str(p, 'text') ?? '').join('')
          : ''
    return { role: str(m, 'role') ?? 'user', content: text }
  })
}

function defaultReply(messages: { role: string; content: string }[]): string {
  const last = [...messages].reverse().find((m) => m.role === 'user')?.content ?? ''
  const words = last.split(/\s+/).filter(Boolean).length
  return `Acknowledged: ${words} word${words === 1 ? '' : 's'} received (ref ${digest(last, 8)}).`
}

function completion(ctx: RouteContext, handler: LlmHandler | null): Reply {
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
  let content: string
  if (handler) {
    const out = handler({ messages, model, body: ctx.body })
    if (typeof out !== 'string') return { status: out.status, body: out.body }
    content = out
  } else content = defaultReply(messages)
  const id = `chatcmpl-${digest(`llm\u0000${ctx.rawBody.toString('utf8')}`, 29)}`
  const created = Math.floor(ctx.now.getTime() / 1000)
  if (field(ctx.body, 'stream') === true)
    return { status: 200, headers: sseHeaders(), stream: (res) => streamChat(res, { id, created, model, content }) }
  const promptTokens = messages.reduce((n, m) => n + 4 + Math.ceil(m.content.length / 4), 3)
  const completionTokens = Math.ceil(content.length / 4)
  return {
    status: 200,
    body: {
      id,
      object: 'chat.completion',
      created,
      model,
      choices: [
        { index: 0, message: { role: 'assistant', content, refusal: null }, logprobs: null, finish_reason: 'stop' },
      ],
      usage: {
        prompt_tokens: promptTokens,
        completion_tokens: completionTokens,
        total_tokens: promptTokens + completionTokens,
      },
      system_fingerprint: `fp_${digest(model, 10)}`,
    },
  }
}

/** A generic OpenAI-compatible `POST /v1/chat/completions`; `handler` scripts the answer. */
export function llmRoutes(key: () => string, handler: () => LlmHandler | null): ServiceRoutes {
  return {
    handle(ctx) {
      if (bearer(ctx.headers) !== key()) return knownError(401)
      if (ctx.method === 'POST' && ctx.path === '/v1/chat/completions') {
        if (typeof ctx.body !== 'object' || ctx.body === null)
          return errorReply(400, 'We could not parse the JSON body of your request.', 'invalid_request_error', null)
        return completion(ctx, handler())
      }
      return errorReply(404, `Invalid URL (${ctx.method} ${ctx.path})`, 'invalid_request_error', null)
    },
    error(status) {
      return knownError(status)
    },
  }
}
