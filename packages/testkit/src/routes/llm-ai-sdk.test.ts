// The scripted chat endpoint through the client an agent loop uses: the AI SDK (`ai` 6) with
// `@ai-sdk/openai-compatible`, over real loopback HTTP.
import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import { APICallError, generateText, jsonSchema, stepCountIs, streamText, tool } from 'ai'
import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { EMULATOR_MODELS, type Emulator, type LlmRequest, startEmulator } from '../index.js'

let emu: Emulator
beforeEach(async () => {
  emu ??= await startEmulator()
  emu.reset()
  emu.llm.respond(null)
})
afterAll(() => emu?.close())

const PAGE = 'Node.js 18 ships the global fetch API, built on undici, with no flag.'

function model(apiKey = emu.keys.llm) {
  const provider = createOpenAICompatible({ name: 'emulator', baseURL: emu.urls.llm, apiKey, includeUsage: true })
  return provider.chatModel(EMULATOR_MODELS.llm)
}

function searchTool(calls: string[]) {
  return tool({
    description: 'Search the web and read the best page.',
    inputSchema: jsonSchema<{ query: string }>({
      type: 'object',
      properties: { query: { type: 'string' } },
      required: ['query'],
      additionalProperties: false,
    }),
    execute: async ({ query }) => {
      calls.push(query)
      return `[p1] ${PAGE}`
    },
  })
}

/** Step 2 of the script: answer with a quote cut from the tool result the client sent back. */
function quoteFromToolResult(req: LlmRequest): string {
  const result = req.messages.find((m) => m.role === 'tool')
  if (!result) return 'No tool result was sent.'
  const quote = result.content.match(/ships the global fetch API, built on undici/)?.[0] ?? 'nothing'
  return `Node.js 18 added a global fetch [p1: "${quote}"].`
}

describe('llm emulator with the AI SDK', () => {
  it('generateText runs a tool call and answers from its result, with usage counted', async () => {
    emu.llm.script([
      { toolCalls: [{ name: 'web_search', arguments: { query: 'node 18 fetch' } }] },
      quoteFromToolResult,
    ])
    const calls: string[] = []
    const result = await generateText({
      model: model(),
      prompt: 'When did Node.js get fetch?',
      tools: { web_search: searchTool(calls) },
      stopWhen: stepCountIs(4),
    })
    expect(calls).toEqual(['node 18 fetch'])
    expect(result.steps.map((s) => s.finishReason)).toEqual(['tool-calls', 'stop'])
    expect(result.text).toBe('Node.js 18 added a global fetch [p1: "ships the global fetch API, built on undici"].')
    expect(result.totalUsage.inputTokens).toBeGreaterThan(0)
    expect(result.totalUsage.outputTokens).toBe(
      result.steps.reduce((n, s) => n + (s.usage.outputTokens ?? Number.NaN), 0),
    )
    expect(emu.count('llm')).toBe(2)
  })

  it('streamText reassembles streamed tool-call deltas and the answer', async () => {
    emu.llm.script([
      {
        content: 'Searching.',
        toolCalls: [{ name: 'web_search', arguments: { query: 'a query long enough to arrive in several pieces' } }],
      },
      quoteFromToolResult,
    ])
    const calls: string[] = []
    const result = streamText({
      model: model(),
      prompt: 'When did Node.js get fetch?',
      tools: { web_search: searchTool(calls) },
      stopWhen: stepCountIs(4),
    })
    const text = await result.text
    expect(calls).toEqual(['a query long enough to arrive in several pieces'])
    expect(text).toBe('Node.js 18 added a global fetch [p1: "ships the global fetch API, built on undici"].')
    expect((await result.steps).map((s) => s.finishReason)).toEqual(['tool-calls', 'stop'])
    expect((await result.totalUsage).outputTokens).toBeGreaterThan(0)
    expect(emu.lastRequest('llm').body).toMatchObject({ stream: true, stream_options: { include_usage: true } })
  })

  it('malformed tool arguments reach the loop as a tool error, and the tool never runs', async () => {
    const seen: LlmRequest[] = []
    emu.llm.script([
      { toolCalls: [{ name: 'web_search', arguments: '{"query": "node' }] },
      (req) => {
        seen.push(req)
        return 'I could not search.'
      },
    ])
    const calls: string[] = []
    const result = await generateText({
      model: model(),
      prompt: 'q',
      tools: { web_search: searchTool(calls) },
      stopWhen: stepCountIs(4),
    })
    expect(calls).toEqual([])
    expect(result.steps[0]!.content.some((part) => part.type === 'tool-error')).toBe(true)
    expect(result.text).toBe('I could not search.')
    // The error went back to the model as the tool's result.
    expect(seen[0]!.messages.find((m) => m.role === 'tool')?.content).toMatch(/invalid|input/i)
  })

  it('a wrong key fails with the 401 of OpenAI, not retried', async () => {
    emu.llm.script(['unused'])
    const failure = await generateText({ model: model('sk-wrong'), prompt: 'q' }).catch((e: unknown) => e)
    expect(APICallError.isInstance(failure)).toBe(true)
    expect(failure).toMatchObject({ statusCode: 401, isRetryable: false })
    expect((failure as Error).message).toContain('Incorrect API key provided')
    expect(emu.count('llm')).toBe(1)
  })
})
