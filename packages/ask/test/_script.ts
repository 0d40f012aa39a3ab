import type { Emulator, LlmRequest } from '@search-layer/testkit'

// A scripted OpenAI-compatible chat model on the emulator's `/llm/v1/chat/completions`: each reply is a chat
// completion body (text, or `tool_calls`), chosen by a function of the request.

/** One tool call as OpenAI sends it; `args` as an object, or a raw string for malformed JSON. */
interface ScriptedCall {
  name: string
  args: object | string
}

/** What a scripted turn answers: assistant text, or tool calls. */
export type Turn = { text: string } | { calls: ScriptedCall[] }

let counter = 0

function completionBody(model: string, turn: Turn) {
  const message =
    'text' in turn
      ? { role: 'assistant', content: turn.text }
      : {
          role: 'assistant',
          content: null,
          tool_calls: turn.calls.map((c) => ({
            id: `call_${++counter}`,
            type: 'function',
            function: { name: c.name, arguments: typeof c.args === 'string' ? c.args : JSON.stringify(c.args) },
          })),
        }
  return {
    id: `chatcmpl-script-${counter}`,
    object: 'chat.completion',
    created: 1_790_000_000,
    model,
    choices: [{ index: 0, message, finish_reason: 'text' in turn ? 'stop' : 'tool_calls' }],
    usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
  }
}

/** Scripts the model: `next(request, n)` decides turn `n` (0-based); every request is kept for assertions. */
export function scriptModel(emu: Emulator, next: (request: LlmRequest, n: number) => Turn): LlmRequest[] {
  const seen: LlmRequest[] = []
  emu.llm.respond((request) => {
    seen.push(request)
    return { status: 200, body: completionBody(request.model, next(request, seen.length - 1)) }
  })
  return seen
}

/** The id of the passage (`[p3] …`) shown to the model whose block contains `needle`. */
export function passageIdWith(request: LlmRequest, needle: string): string {
  const shown = request.messages.map((m) => m.content).join('\n')
  for (const block of shown.split(/\n(?=\[p\d+\] )/)) {
    const m = /^\[(p\d+)\] /.exec(block.trimStart())
    if (m && block.includes(needle)) return m[1] as string
  }
  throw new Error(`no passage shown to the model contains ${JSON.stringify(needle)}`)
}

/** Whether the request offered tools the model may call. */
export const offersTools = (request: LlmRequest): boolean => {
  const body = request.body as { tools?: unknown[]; tool_choice?: unknown }
  return Array.isArray(body.tools) && body.tools.length > 0 && body.tool_choice !== 'none'
}

/**
 * A tool result's text split around its one untrusted-content frame; throws unless there is exactly one frame whose
 * real end marker appears once (planted markers with other ids do not count).
 */
export function splitFrame(text: string): { before: string; inside: string; after: string } {
  const opens = [...text.matchAll(/<<<page-content ([0-9a-f]{8})>>>\n/g)]
  if (opens.length !== 1) throw new Error(`expected one frame, found ${opens.length}`)
  const open = opens[0]!
  const close = `\n<<<end page-content ${open[1]}>>>`
  const parts = text.split(close)
  if (parts.length !== 2) throw new Error(`expected one end marker, found ${parts.length - 1}`)
  const start = open.index + open[0].length
  return { before: text.slice(0, open.index), inside: parts[0]!.slice(start), after: parts[1]! }
}
