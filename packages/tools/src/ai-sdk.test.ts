import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createSearchLayer } from '@search-layer/engine'
import * as ai6 from 'ai'
import * as ai5 from 'ai-v5'
import * as test5 from 'ai-v5/test'
import * as ai7 from 'ai-v7'
import * as test7 from 'ai-v7/test'
import * as test6 from 'ai/test'
import { useEmulator } from '@search-layer/testkit/vitest'
import { beforeAll, describe, expect, it } from 'vitest'
import { type AiSdkModule, aiSdkTools } from './ai-sdk.js'
import type { ToolResult } from './results.js'
import { toolJsonSchema } from './json-schema.js'
import { TOOL_NAMES, WebFetchInputSchema } from './schemas.js'

const emu = useEmulator({ resetEachTest: false })
let env: Record<string, string>

beforeAll(async () => {
  const home = mkdtempSync(join(tmpdir(), 'sl-ai-sdk-'))
  env = { ...emu.env, HOME: home, SEARCH_LAYER_KEYLESS: 'off', BOCHA_API_KEY: '' }
})

// Each major's model contract: finish reasons and usage changed shape from LanguageModelV2 (AI SDK 5) to V3 (6).
const v2Finish = { toolCalls: 'tool-calls', stop: 'stop' }
const v3Finish = { toolCalls: { unified: 'tool-calls', raw: 'tool_calls' }, stop: { unified: 'stop', raw: 'stop' } }
const v2Usage = { inputTokens: 10, outputTokens: 5, totalTokens: 15 }
const v3Usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
}

// biome-ignore lint/suspicious/noExplicitAny: three majors of the SDK with three generations of generic signatures.
type Loose = any
interface Major {
  name: string
  ai: Loose
  Model: Loose
  finish: typeof v2Finish | typeof v3Finish
  usage: typeof v2Usage | typeof v3Usage
}
const majors: Major[] = [
  { name: 'AI SDK 5', ai: ai5, Model: test5.MockLanguageModelV2, finish: v2Finish, usage: v2Usage },
  { name: 'AI SDK 6', ai: ai6, Model: test6.MockLanguageModelV3, finish: v3Finish, usage: v3Usage },
  { name: 'AI SDK 7', ai: ai7, Model: test7.MockLanguageModelV4, finish: v3Finish, usage: v3Usage },
]

const toolCall = {
  type: 'tool-call',
  toolCallId: 'tc1',
  toolName: 'web_search',
  input: JSON.stringify({ query: 'rust async runtime', max_results: 3 }),
}
const ANSWER = 'Tokio is the usual runtime.'

// A model that asks for one web_search, then answers once it has seen the tool's output (recorded for the test).
function scriptedModel(major: Major, seen: unknown[]) {
  const wantsTool = (prompt: { role: string; content: unknown[] }[]) => {
    const last = prompt.at(-1)
    if (last?.role === 'tool') seen.push(last.content[0])
    return last?.role !== 'tool'
  }
  return new major.Model({
    doGenerate: async (call: Loose) => {
      const tool = wantsTool(call.prompt)
      return {
        content: tool ? [toolCall] : [{ type: 'text', text: ANSWER }],
        finishReason: tool ? major.finish.toolCalls : major.finish.stop,
        usage: major.usage,
        warnings: [],
      }
    },
    doStream: async (call: Loose) => {
      const tool = wantsTool(call.prompt)
      const parts = tool
        ? [toolCall, { type: 'finish', finishReason: major.finish.toolCalls, usage: major.usage }]
        : [
            { type: 'text-start', id: 't1' },
            { type: 'text-delta', id: 't1', delta: ANSWER },
            { type: 'text-end', id: 't1' },
            { type: 'finish', finishReason: major.finish.stop, usage: major.usage },
          ]
      return { stream: major.ai.simulateReadableStream({ chunks: [{ type: 'stream-start', warnings: [] }, ...parts] }) }
    },
  })
}

const toolsFor = (major: Major) =>
  aiSdkTools({ ai: major.ai as AiSdkModule, env, layer: createSearchLayer({ env, rateLimits: false }) })

describe.each(majors)('$name', (major) => {
  it('builds tool() definitions whose JSON Schema is the shared one', async () => {
    const tools = await toolsFor(major)
    expect(Object.keys(tools)).toEqual([...TOOL_NAMES])
    const schema = await major.ai.asSchema(tools.web_fetch.inputSchema).jsonSchema
    expect(schema).toEqual(toolJsonSchema(WebFetchInputSchema))
    expect(tools.web_search.description).toMatch(/Live engines: brave, exa, tavily, grok\./)
  })

  it('generateText: the model calls web_search, the SDK runs it against the emulator, the model sees the text', async () => {
    const seen: unknown[] = []
    const result = await major.ai.generateText({
      model: scriptedModel(major, seen),
      tools: await toolsFor(major),
      prompt: 'Which async runtime should I use in Rust?',
      stopWhen: major.ai.stepCountIs(3),
    })
    expect(result.text).toBe(ANSWER)
    const output = result.steps[0].toolResults[0].output as ToolResult
    expect(output.isError).toBeUndefined()
    expect((output.data as { results: unknown[] }).results).toHaveLength(3)
    expect(seen).toEqual([
      expect.objectContaining({
        type: 'tool-result',
        toolName: 'web_search',
        output: { type: 'text', value: expect.stringContaining('[1] ') },
      }),
    ])
  })

  it('streamText: the stream finishes with the answer after the tool ran', async () => {
    const seen: unknown[] = []
    const result = major.ai.streamText({
      model: scriptedModel(major, seen),
      tools: await toolsFor(major),
      prompt: 'Which async runtime should I use in Rust?',
      stopWhen: major.ai.stepCountIs(3),
    })
    let text = ''
    for await (const delta of result.textStream) text += delta
    expect(text).toBe(ANSWER)
    const steps = await result.steps
    expect(((steps[0].toolResults[0].output as ToolResult).data as { results: unknown[] }).results).toHaveLength(3)
    expect(seen).toHaveLength(1)
  })

  it('sends a failed call to the model as error text', async () => {
    const seen: unknown[] = []
    const model = new major.Model({
      doGenerate: async (call: Loose) => {
        const last = call.prompt.at(-1)
        if (last?.role === 'tool') seen.push(last.content[0])
        return {
          content:
            last?.role === 'tool'
              ? [{ type: 'text', text: 'done' }]
              : [{ ...toolCall, input: JSON.stringify({ max_results: 3 }) }],
          finishReason: last?.role === 'tool' ? major.finish.stop : major.finish.toolCalls,
          usage: major.usage,
          warnings: [],
        }
      },
    })
    await major.ai.generateText({ model, tools: await toolsFor(major), prompt: 'x', stopWhen: major.ai.stepCountIs(3) })
    expect(seen).toEqual([
      expect.objectContaining({
        output: { type: 'error-text', value: expect.stringMatching(/give `query` or `queries`/) },
      }),
    ])
  })
})
