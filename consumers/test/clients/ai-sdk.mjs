// A user's first AI SDK program: the packed tools package's aiSdkTools() with whichever `ai` major is installed
// (found by aiSdkTools itself, not passed in), a mock model from `ai/test` that calls web_search and then answers,
// through generateText and streamText. The tools really run, against the emulator in the test's env. Prints JSON.
import { createRequire } from 'node:module'
import * as ai from 'ai'
import * as aiTest from 'ai/test'
import { aiSdkTools } from '@search-layer/tools/ai-sdk'

const major = Number(createRequire(import.meta.url)('ai/package.json').version.split('.')[0])
// The model contract changed with each major: LanguageModelV2 (5), V3 (6), V4 (7); finish reasons and usage with V3.
const MockModel = aiTest.MockLanguageModelV4 ?? aiTest.MockLanguageModelV3 ?? aiTest.MockLanguageModelV2
const v2 = major === 5
const finish = v2
  ? { toolCalls: 'tool-calls', stop: 'stop' }
  : { toolCalls: { unified: 'tool-calls', raw: 'tool_calls' }, stop: { unified: 'stop', raw: 'stop' } }
const usage = v2
  ? { inputTokens: 10, outputTokens: 5, totalTokens: 15 }
  : {
      inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: 5, text: 5, reasoning: 0 },
    }
const toolCall = {
  type: 'tool-call',
  toolCallId: 'tc1',
  toolName: 'web_search',
  input: JSON.stringify({ query: 'rust async runtime', max_results: 3 }),
}
const ANSWER = 'Tokio is the usual runtime.'

/** Calls web_search first, then answers; records what the model was shown of the tool's result. */
function scriptedModel(seen) {
  const wantsTool = (prompt) => {
    const last = prompt.at(-1)
    if (last?.role === 'tool') seen.push(last.content[0])
    return last?.role !== 'tool'
  }
  return new MockModel({
    doGenerate: async ({ prompt }) => {
      const tool = wantsTool(prompt)
      return {
        content: tool ? [toolCall] : [{ type: 'text', text: ANSWER }],
        finishReason: tool ? finish.toolCalls : finish.stop,
        usage,
        warnings: [],
      }
    },
    doStream: async ({ prompt }) => {
      const tool = wantsTool(prompt)
      const parts = tool
        ? [toolCall, { type: 'finish', finishReason: finish.toolCalls, usage }]
        : [
            { type: 'text-start', id: 't1' },
            { type: 'text-delta', id: 't1', delta: ANSWER },
            { type: 'text-end', id: 't1' },
            { type: 'finish', finishReason: finish.stop, usage },
          ]
      return { stream: ai.simulateReadableStream({ chunks: [{ type: 'stream-start', warnings: [] }, ...parts] }) }
    },
  })
}

const summary = (text, steps, seen) => {
  const output = steps[0].toolResults[0].output
  return {
    text,
    toolError: output.isError ?? false,
    results: output.data?.results?.length ?? 0,
    seen: seen.map((part) => ({ type: part.type, toolName: part.toolName, output: part.output })),
  }
}

const tools = await aiSdkTools({ env: process.env })
const prompt = 'Which async runtime should I use in Rust?'
const generateSeen = []
const generated = await ai.generateText({
  model: scriptedModel(generateSeen),
  tools,
  prompt,
  stopWhen: ai.stepCountIs(3),
})
const streamSeen = []
const streamed = ai.streamText({ model: scriptedModel(streamSeen), tools, prompt, stopWhen: ai.stepCountIs(3) })
let streamedText = ''
for await (const delta of streamed.textStream) streamedText += delta
console.log(
  JSON.stringify({
    major,
    generateText: summary(generated.text, generated.steps, generateSeen),
    streamText: summary(streamedText, await streamed.steps, streamSeen),
  }),
)
