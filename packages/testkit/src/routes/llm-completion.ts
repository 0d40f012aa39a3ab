// The bodies of an OpenAI chat completion: one JSON object, or `chat.completion.chunk` events over SSE (text in
// pieces, each tool call as a first delta with its id and name and then argument pieces, all keyed by `index`, a
// finish chunk, a usage chunk when `stream_options.include_usage` asks, and `data: [DONE]`).
import type { ServerResponse } from 'node:http'
import { digest, hashInt } from '../_util.js'

/** A tool call as sent: its arguments already a string. */
export interface SentToolCall {
  id: string
  name: string
  arguments: string
}

export interface Usage {
  prompt_tokens: number
  completion_tokens: number
  total_tokens: number
}

/** What one completion says, whichever way it is sent. */
export interface Completion {
  id: string
  created: number
  model: string
  content: string
  toolCalls: SentToolCall[]
  usage: Usage
}

const finishReason = (c: Completion): string => (c.toolCalls.length > 0 ? 'tool_calls' : 'stop')
const fingerprint = (model: string): string => `fp_${digest(model, 10)}`

/** The non-streamed `chat.completion` object. */
export function completionBody(c: Completion): Record<string, unknown> {
  const toolCalls = c.toolCalls.map((t) => ({
    id: t.id,
    type: 'function',
    function: { name: t.name, arguments: t.arguments },
  }))
  return {
    id: c.id,
    object: 'chat.completion',
    created: c.created,
    model: c.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          // NOTE(llm): OpenAI sends `content: null` beside tool calls when the model wrote no text.
          content: c.content === '' && toolCalls.length > 0 ? null : c.content,
          ...(toolCalls.length > 0 && { tool_calls: toolCalls }),
          refusal: null,
          annotations: [],
        },
        logprobs: null,
        finish_reason: finishReason(c),
      },
    ],
    usage: c.usage,
    service_tier: 'default',
    system_fingerprint: fingerprint(c.model),
  }
}

/** Pieces of a text at a deterministic pseudo-random size, so clients must reassemble cut words and JSON. */
function pieces(text: string, seed: string): string[] {
  const size = 7 + (hashInt(seed) % 13)
  const out: string[] = []
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size))
  return out
}

/** Streams the completion as OpenAI's SSE chunks. */
export function streamCompletion(res: ServerResponse, c: Completion, includeUsage: boolean): void {
  const base = { id: c.id, object: 'chat.completion.chunk', created: c.created, model: c.model }
  const extra = { service_tier: 'default', system_fingerprint: fingerprint(c.model) }
  const write = (payload: Record<string, unknown>) => res.write(`data: ${JSON.stringify(payload)}\n\n`)
  const chunk = (delta: Record<string, unknown>, finish: string | null) =>
    write({
      ...base,
      ...extra,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      ...(includeUsage && { usage: null }),
    })
  chunk({ role: 'assistant', content: c.toolCalls.length > 0 && c.content === '' ? null : '', refusal: null }, null)
  for (const piece of pieces(c.content, c.content)) chunk({ content: piece }, null)
  c.toolCalls.forEach((t, index) => {
    chunk({ tool_calls: [{ index, id: t.id, type: 'function', function: { name: t.name, arguments: '' } }] }, null)
    for (const piece of pieces(t.arguments, t.id))
      chunk({ tool_calls: [{ index, function: { arguments: piece } }] }, null)
  })
  chunk({}, finishReason(c))
  if (includeUsage) write({ ...base, ...extra, choices: [], usage: c.usage })
  res.end('data: [DONE]\n\n')
}
