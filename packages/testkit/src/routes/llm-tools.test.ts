import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { postJson } from '../_test-helpers.js'
import { EMULATOR_MODELS, type Emulator, startEmulator } from '../index.js'

let emu: Emulator
beforeEach(async () => {
  emu ??= await startEmulator()
  emu.reset()
  emu.llm.respond(null)
})
afterAll(() => emu?.close())

// biome-ignore lint/suspicious/noExplicitAny: test-only access into JSON
type Json = Record<string, any>

const TOOLS = [
  {
    type: 'function',
    function: {
      name: 'web_search',
      description: 'Search the web.',
      parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
    },
  },
]
const chat = (body: Json, key = emu.keys.llm, signal?: AbortSignal) =>
  postJson(`${emu.urls.llm}/chat/completions`, body, { authorization: `Bearer ${key}` }, signal)
const ask = (content: string, extra: Json = {}) => ({
  model: EMULATOR_MODELS.llm,
  messages: [{ role: 'user', content }],
  tools: TOOLS,
  ...extra,
})

/** The JSON payloads of an SSE body, `[DONE]` as the string. */
async function events(res: Response): Promise<(Json | string)[]> {
  const text = await res.text()
  return text
    .split('\n\n')
    .filter((block) => block.startsWith('data: '))
    .map((block) => block.slice(6))
    .map((data) => (data === '[DONE]' ? data : (JSON.parse(data) as Json)))
}

describe('llm: scripted tool calls', () => {
  it('answers with tool_calls in OpenAI JSON: content null, finish_reason tool_calls, usage counted', async () => {
    emu.llm.respond(() => ({ toolCalls: [{ name: 'web_search', arguments: { query: 'node 18 fetch' } }] }))
    const res = await chat(ask('When did Node ship fetch?'))
    expect(res.status).toBe(200)
    const body = (await res.json()) as Json
    expect(body.choices).toEqual([
      {
        index: 0,
        message: {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: expect.stringMatching(/^call_[0-9a-f]{24}$/),
              type: 'function',
              function: { name: 'web_search', arguments: '{"query":"node 18 fetch"}' },
            },
          ],
          refusal: null,
          annotations: [],
        },
        logprobs: null,
        finish_reason: 'tool_calls',
      },
    ])
    expect(body.usage.completion_tokens).toBe(1 + Math.ceil('web_search{"query":"node 18 fetch"}'.length / 4))
    expect(body.usage.total_tokens).toBe(body.usage.prompt_tokens + body.usage.completion_tokens)
    // The declared tools count towards the prompt.
    const bare = (await (await chat({ ...ask('When did Node ship fetch?'), tools: undefined })).json()) as Json
    expect(body.usage.prompt_tokens).toBeGreaterThan(bare.usage.prompt_tokens)
  })

  it('lets a script see the conversation: tool names, assistant tool calls and tool results', async () => {
    const seen: Json[] = []
    emu.llm.script([
      { toolCalls: [{ id: 'call_1', name: 'web_search', arguments: { query: 'fetch' } }] },
      (req) => {
        seen.push(req)
        const result = req.messages.find((m) => m.role === 'tool')!
        return `Node 18 ships it [p1: "${result.content.slice(0, 24)}"].`
      },
    ])
    const first = (await (await chat(ask('q'))).json()) as Json
    const call = first.choices[0].message.tool_calls[0]
    const second = (await (
      await chat(
        ask('q', {
          messages: [
            { role: 'user', content: 'q' },
            { role: 'assistant', content: null, tool_calls: [call] },
            { role: 'tool', tool_call_id: call.id, content: 'Node.js 18 ships the global fetch API.' },
          ],
        }),
      )
    ).json()) as Json
    expect(second.choices[0]).toMatchObject({
      message: { content: 'Node 18 ships it [p1: "Node.js 18 ships the glo"].' },
      finish_reason: 'stop',
    })
    expect(seen[0]).toMatchObject({
      turn: 1,
      stream: false,
      tools: ['web_search'],
      messages: [
        { role: 'user', content: 'q' },
        {
          role: 'assistant',
          content: '',
          toolCalls: [{ id: 'call_1', name: 'web_search', arguments: '{"query":"fetch"}' }],
        },
        { role: 'tool', content: 'Node.js 18 ships the global fetch API.', toolCallId: 'call_1' },
      ],
    })
  })

  it('answers past the end of a script with a 500 in the error envelope', async () => {
    emu.llm.script(['only one'])
    expect((await chat(ask('a'))).status).toBe(200)
    const res = await chat(ask('b'))
    expect(res.status).toBe(500)
    expect(((await res.json()) as Json).error).toMatchObject({
      type: 'server_error',
      message: expect.stringContaining('1 scripted, request 2'),
    })
  })

  it('sends string arguments verbatim, so a reply can carry invalid JSON', async () => {
    emu.llm.respond(() => ({ toolCalls: [{ name: 'web_search', arguments: '{"query": "node' }] }))
    const body = (await (await chat(ask('q'))).json()) as Json
    expect(body.choices[0].message.tool_calls[0].function.arguments).toBe('{"query": "node')
  })

  it('streams text and tool calls as OpenAI chunks, tool-call deltas keyed by index, usage last when asked', async () => {
    const args = { query: 'a query long enough to be cut into several argument pieces' }
    emu.llm.respond(() => ({
      content: 'Let me search.',
      toolCalls: [
        { name: 'web_search', arguments: args },
        { name: 'web_search', arguments: { query: 'second' } },
      ],
    }))
    const all = await events(await chat(ask('q', { stream: true, stream_options: { include_usage: true } })))
    expect(all.at(-1)).toBe('[DONE]')
    const chunks = all.slice(0, -1) as Json[]
    expect(new Set(chunks.map((c) => c.object))).toEqual(new Set(['chat.completion.chunk']))
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1)
    const deltas = chunks.filter((c) => c.choices.length > 0).map((c) => c.choices[0].delta)
    expect(deltas[0]).toMatchObject({ role: 'assistant' })
    expect(deltas.map((d) => d.content ?? '').join('')).toBe('Let me search.')
    const calls: { id?: string; name?: string; arguments: string }[] = []
    for (const d of deltas)
      for (const t of d.tool_calls ?? []) {
        calls[t.index] ??= { arguments: '' }
        if (t.id) Object.assign(calls[t.index]!, { id: t.id, name: t.function.name })
        calls[t.index]!.arguments += t.function.arguments
      }
    expect(calls.map((c) => [c.name, JSON.parse(c.arguments)])).toEqual([
      ['web_search', args],
      ['web_search', { query: 'second' }],
    ])
    expect(deltas.filter((d) => d.tool_calls?.[0]?.index === 0).length).toBeGreaterThan(2)
    const finish = chunks.filter((c) => c.choices[0]?.finish_reason)
    expect(finish.map((c) => c.choices[0].finish_reason)).toEqual(['tool_calls'])
    const last = chunks.at(-1)!
    expect(last.choices).toEqual([])
    expect(last.usage).toMatchObject({ prompt_tokens: expect.any(Number), completion_tokens: expect.any(Number) })
  })

  it('streams without a usage chunk unless stream_options asks', async () => {
    emu.llm.respond(() => 'plain text')
    const chunks = (await events(await chat(ask('q', { stream: true })))).slice(0, -1) as Json[]
    expect(chunks.every((c) => c.choices.length === 1 && !('usage' in c))).toBe(true)
    expect(chunks.at(-1)!.choices[0].finish_reason).toBe('stop')
  })

  it('holds a reply for its latencyMs: a client that gives up first is aborted', async () => {
    emu.llm.respond(() => ({ content: 'late', latencyMs: 5_000 }))
    await expect(chat(ask('q'), emu.keys.llm, AbortSignal.timeout(50))).rejects.toThrow(/abort|timeout/i)
    // On a loaded host the request can reach the emulator after the client gave up: it must do so in this test,
    // or it would take the next test's first scripted reply.
    await vi.waitFor(() => expect(emu.requests.filter((r) => r.service === 'llm')).toHaveLength(1), { timeout: 10_000 })
  })

  it('refuses a wrong key with OpenAI 401 envelope, without running the script', async () => {
    emu.llm.script(['never sent'])
    const res = await chat(ask('q'), 'sk-wrong')
    expect(res.status).toBe(401)
    expect(await res.json()).toEqual({
      error: {
        message: expect.stringContaining('Incorrect API key provided'),
        type: 'invalid_request_error',
        param: null,
        code: 'invalid_api_key',
      },
    })
    expect(((await (await chat(ask('q'))).json()) as Json).choices[0].message.content).toBe('never sent')
  })
})
