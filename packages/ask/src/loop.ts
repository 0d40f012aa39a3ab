import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import type { LlmEndpoint } from '@search-layer/core/http'
import { type ModelMessage, type StepResult, generateText, stepCountIs } from 'ai'
import { modelFailureNote, redact } from './model-errors.js'
import { modelFetch } from './model-fetch.js'
import { type ModelTools, modelTools } from './model-tools.js'
import { answerNowNote, systemPrompt } from './prompt.js'
import type { AskRun } from './run-state.js'
import type { AskUsage } from './schema.js'

/** What the model loop ends with: the model's answer, or a note on why there is none. */
export type LoopOutcome = { ok: true; text: string } | { ok: false; note: string }

type Exhausted = NonNullable<AskUsage['exhausted']>

/** Invalid tool calls (malformed JSON, unknown tool, arguments failing the schema) tolerated before giving up. */
const MAX_INVALID_TOOL_CALLS = 2
/** Share of the time budget after which no tool runs: the rest is the answer's. */
const TOOL_TIME_SHARE = 0.75

/** The budget that is spent before model turn `stepNumber`, if any. */
function spentBudget(run: AskRun, stepNumber: number): Exhausted | undefined {
  if (stepNumber >= run.budget.rounds) return 'rounds'
  if (run.toolCalls >= run.budget.toolCalls) return 'toolCalls'
  if (run.tokens >= run.budget.tokens) return 'tokens'
  if (run.elapsedMs() >= run.budget.timeMs * TOOL_TIME_SHARE) return 'timeMs'
  return undefined
}

/** Records a finished model turn and its invalid tool calls; counts tokens and rounds. */
function recordTurn(run: AskRun, step: StepResult<ModelTools>, ms: number): void {
  run.inputTokens += step.usage.inputTokens ?? 0
  run.outputTokens += step.usage.outputTokens ?? 0
  const calls = step.toolCalls.map((c) => c.toolName)
  if (calls.length > 0) run.rounds++
  for (const part of step.content) {
    if (part.type !== 'tool-call' || !('invalid' in part) || !part.invalid) continue
    run.invalidToolCalls++
    const why = part.error instanceof Error ? part.error.message : 'invalid call'
    run.record({
      kind: 'tool',
      tool: part.toolName,
      args: part.input,
      call: part.toolCallId,
      summary: `invalid call, returned to the model as an error: ${why.replace(/\s+/g, ' ').slice(0, 200)}`,
      ok: false,
      ms: 0,
    })
  }
  const turn = {
    kind: 'model' as const,
    text: step.text,
    summary: calls.length > 0 ? `called ${calls.join(', ')}` : step.text.trim() ? 'answered' : 'no answer',
    ok: true,
    ms,
    tokens: (step.usage.inputTokens ?? 0) + (step.usage.outputTokens ?? 0),
  }
  run.endTurn(turn, calls)
}

/**
 * Runs the tool loop (AI SDK `generateText` with tools, `stopWhen` and `prepareStep`) against an OpenAI-compatible
 * endpoint. Budgets: `rounds` turns with tools, then one turn without; when tool calls, tokens or time run short
 * the next turn gets no tools and is told to answer. Never throws: failures come back as a note.
 */
export async function runModelLoop(
  run: AskRun,
  endpoint: LlmEndpoint,
  messages: ModelMessage[],
  signal?: AbortSignal,
): Promise<LoopOutcome & { exhausted?: Exhausted }> {
  const provider = createOpenAICompatible({
    name: 'search-layer-llm',
    baseURL: endpoint.url,
    ...(endpoint.apiKey && { apiKey: endpoint.apiKey }),
    fetch: modelFetch(run.reading.env),
  })
  const system = systemPrompt(run.budget, new Date())
  const timeout = AbortSignal.timeout(run.budget.timeMs)
  const abortSignal = signal ? AbortSignal.any([signal, timeout]) : timeout
  let exhausted: Exhausted | undefined
  let turnStarted = Date.now()
  try {
    const result = await generateText({
      model: provider.chatModel(endpoint.model),
      system,
      messages,
      tools: modelTools(run),
      maxRetries: 1,
      abortSignal,
      stopWhen: [stepCountIs(run.budget.rounds + 1), () => run.invalidToolCalls >= MAX_INVALID_TOOL_CALLS],
      prepareStep: ({ stepNumber }) => {
        turnStarted = Date.now()
        const spent = spentBudget(run, stepNumber)
        run.beginTurn(!spent)
        if (!spent) return undefined
        exhausted ??= spent
        return { toolChoice: 'none', activeTools: [], system: `${system}\n\n${answerNowNote(spent)}` }
      },
      onStepFinish: (step) => recordTurn(run, step, Date.now() - turnStarted),
    })
    const outcome = { ...(exhausted && { exhausted }) }
    if (run.invalidToolCalls >= MAX_INVALID_TOOL_CALLS)
      return { ok: false, note: 'The model made invalid tool calls twice, so the answer is extractive.', ...outcome }
    const text = result.text.trim()
    if (!text) return { ok: false, note: 'The model gave no answer, so the answer is extractive.', ...outcome }
    return { ok: true, text: redact(text, endpoint.apiKey), ...outcome }
  } catch (error) {
    const failure = modelFailureNote(error, endpoint)
    run.abandonTurn(`failed: ${failure}`, Date.now() - turnStarted)
    return { ok: false, note: `${failure} The answer is extractive.`, ...(exhausted && { exhausted }) }
  }
}
