import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { AskResultSchema } from '@search-layer/ask'
import { createSearchLayer } from '@search-layer/engine'
import type { LlmRequest } from '@search-layer/testkit'
import { braveAnswer } from '@search-layer/testkit'
import { useEmulator } from '@search-layer/testkit/vitest'
import * as ai6 from 'ai'
import { beforeEach, describe, expect, it } from 'vitest'
import { aiSdkTools } from './ai-sdk.js'
import { anthropicTools } from './anthropic.js'
import { openAiTools } from './openai.js'
import { TOOL_OUTPUT_SCHEMAS } from './output-schemas.js'
import type { ToolResult } from './results.js'

// An invented fact on a page of the emulator's, found by Brave for every query, so the answer can come from nowhere
// else. Written for these tests.
const FACT = 'Quibbleton 7 was released on 14 May 2026 by the Quibbleton team.'
const PAGE = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Quibbleton 7 release notes</title></head><body><main><article><h1>Quibbleton 7 release notes</h1><p>${FACT} It adds a streaming importer.</p><p>Support for the old plugin format ends with this release, according to the upgrade guide.</p></article></main></body></html>`
const QUESTION = 'When was Quibbleton 7 released?'

const emu = useEmulator()
let env: Record<string, string | undefined>

beforeEach(() => {
  const home = mkdtempSync(join(tmpdir(), 'sl-answer-tool-'))
  env = {
    BRAVE_API_KEY: emu.env.BRAVE_API_KEY,
    BRAVE_API_URL: emu.env.BRAVE_API_URL,
    SEARCH_LAYER_ALLOW_PRIVATE_HOSTS: '1',
    SEARCH_LAYER_KEYLESS: 'off',
    SEARCH_LAYER_HISTORY_DIR: join(home, 'conversations'),
    HOME: home,
  }
  emu.pages.set('/quibbleton-7', { body: PAGE })
  const results = [
    {
      type: 'search_result',
      title: 'Quibbleton 7 release notes',
      url: `${emu.urls.pages}/quibbleton-7`,
      description: 'Out now.',
    },
  ]
  emu.fault('brave', braveAnswer(results))
})

const withModel = () => ({
  ...env,
  SEARCH_LAYER_LLM_URL: emu.env.SEARCH_LAYER_LLM_URL,
  SEARCH_LAYER_LLM_KEY: emu.env.SEARCH_LAYER_LLM_KEY,
  SEARCH_LAYER_LLM_MODEL: emu.env.SEARCH_LAYER_LLM_MODEL,
})
const options = (e: Record<string, string | undefined>) => ({
  env: e,
  layer: createSearchLayer({ env: e, cache: false }),
  sources: ['brave' as const],
  answer: true,
})

/** The id of the passage shown to the model whose block holds `needle`. */
function passageWith(request: LlmRequest, needle: string): string {
  for (const block of request.messages
    .map((m) => m.content)
    .join('\n')
    .split(/\n(?=\[p\d+\] )/)) {
    const id = /^\[(p\d+)\] /.exec(block.trimStart())?.[1]
    if (id && block.includes(needle)) return id
  }
  throw new Error(`no passage shown holds ${JSON.stringify(needle)}`)
}

/** The model searches once, then answers quoting the page. */
function scriptSearchThenAnswer(): void {
  emu.llm.script([
    { toolCalls: [{ name: 'web_search', arguments: { query: 'Quibbleton 7 release' } }] },
    (req) => `Quibbleton 7 came out on 14 May 2026. [${passageWith(req, FACT)}: "released on 14 May 2026"]`,
  ])
}

function expectCheckedAnswer(result: ToolResult, mode: 'model' | 'extractive') {
  expect(result.isError).toBeUndefined()
  const data = AskResultSchema.parse(result.data)
  expect(data).toMatchObject({ mode, abstained: false })
  expect(data.counts.supported).toBeGreaterThan(0)
  // Our count outside the frame; the answer (model output, quotes of pages) inside it.
  const [before, inside] = result.content.split(/<<<page-content [0-9a-f]{8}>>>\n/)
  expect(before).toMatch(/^Answer \((answered by the model|extractive answer \(no model\))\): \d+ supported/)
  expect(inside).toContain('14 May 2026')
  expect(before).not.toContain('14 May 2026')
  expect(result.content).toMatch(new RegExp(`Conversation id: ${data.id} `))
  return data
}

// Each ask loads the tokenizer and the page reader's worker on first use: slow on a busy machine, not a hang.
describe('answer, in every tool format', { timeout: 60_000 }, () => {
  it('OpenAI: offered when asked for, runs the ask with the scripted model, data shaped by AskResultSchema', async () => {
    expect(TOOL_OUTPUT_SCHEMAS.answer).toBe(AskResultSchema)
    const plain = await openAiTools({ ...options(env), answer: false })
    expect(plain.tools.map((t) => t.function.name)).not.toContain('answer')
    scriptSearchThenAnswer()
    const tools = await openAiTools(options(withModel()))
    const offered = tools.tools.find((t) => t.function.name === 'answer')
    expect(offered?.function.parameters.required).toEqual(['question', 'conversation_id'])
    expect(tools.responsesTools.map((t) => t.name)).toContain('answer')
    const call = { id: 'call_1', function: { name: 'answer', arguments: JSON.stringify({ question: QUESTION }) } }
    const { result, ...message } = await tools.runToolCall(call)
    expect(message).toMatchObject({ role: 'tool', tool_call_id: 'call_1' })
    const data = expectCheckedAnswer(result, 'model')
    expect(data.steps.filter((s) => s.kind === 'tool').map((s) => s.tool)).toEqual(['web_search'])
    expect(emu.count('llm')).toBe(2)
  })

  it('Anthropic: without a model the answer is extractive; a follow-up carries the conversation', async () => {
    const tools = await anthropicTools(options(env))
    expect(tools.tools.map((t) => t.name)).toContain('answer')
    const first = await tools.executors.answer({ question: QUESTION })
    const data = expectCheckedAnswer(first, 'extractive')
    expect(emu.count('llm')).toBe(0)
    const block = await tools.run({
      id: 'toolu_1',
      name: 'answer',
      input: { question: 'Which plugin format does it drop?', conversation_id: data.id },
    })
    expect(block).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_1' })
    expect(block.is_error).toBeUndefined()
    expect(block.content).toContain(`Conversation id: ${data.id} `)
  })

  it('AI SDK: execute resolves to the ask result; bad arguments come back as an error naming the field', async () => {
    scriptSearchThenAnswer()
    const tools = await aiSdkTools({ ...options(withModel()), ai: ai6 })
    const run = (input: unknown) =>
      tools.answer?.execute?.(input, { toolCallId: 't1', messages: [] }) as Promise<ToolResult>
    expectCheckedAnswer(await run({ question: QUESTION }), 'model')
    const bad = await run({ question: '  ' })
    expect(bad.isError).toBe(true)
    expect(bad.content).toMatch(/question/)
  })
})
