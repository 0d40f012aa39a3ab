import { type Env, parseInput } from '@search-layer/core'
import { type LlmEndpoint, llmEndpointFromEnv } from '@search-layer/core/http'
import { type SearchLayer, createSearchLayer } from '@search-layer/engine'
import type { ModelMessage } from 'ai'
import { answerConfidence, citedPassages, freshness } from '@search-layer/answer'
import { type Draft, extractiveDraft, modelDraft } from './drafts.js'
import { runModelLoop } from './loop.js'
import { framedPassages } from './model-tools.js'
import { messageOf } from './reading.js'
import { AskRun } from './run-state.js'
import {
  type AskInput,
  type AskResult,
  AskBudgetSchema,
  AskInputSchema,
  type AskEvent,
  type AskStep,
  type ParsedAskInput,
} from './schema.js'
import {
  type Conversation,
  conversationsDir,
  loadConversation,
  newConversationId,
  saveConversation,
  writePrivate,
} from './store.js'
import { renderTranscript } from './transcript.js'

/** Options of `ask`: where keys, engines and history live, and what to tell along the way. */
export interface AskOptions {
  /** Keys, `SEARCH_LAYER_LLM_*`, `SEARCH_LAYER_HISTORY_DIR`; default `process.env`. */
  env?: Env
  /** The search layer; default `createSearchLayer({ env })`. */
  layer?: SearchLayer
  /** Conversations directory; default `conversationsDir(env)`. */
  historyDir?: string
  /** Write the Markdown transcript here instead of `<historyDir>/<id>.md`. */
  transcriptPath?: string
  /** Cancels the ask. */
  signal?: AbortSignal
  /** Called with each step once it is recorded: a model turn when it ends, then the tool calls it made. */
  onStep?: (step: AskStep) => void
  /**
   * Called as things happen: a model turn starts and ends, a tool call starts (name, arguments) and ends (status,
   * time, result and passage counts, error). For live progress, such as an execution graph.
   */
  onEvent?: (event: AskEvent) => void
}

/** Prior turns as chat messages, and their cited passages offered again so a follow-up can cite them. */
function priorMessages(conversation: Conversation | undefined, question: string): ModelMessage[] {
  const turns = conversation?.turns ?? []
  const messages: ModelMessage[] = turns.flatMap((t): ModelMessage[] => [
    { role: 'user', content: t.question },
    { role: 'assistant', content: t.answer },
  ])
  const last = turns.at(-1)
  const earlier = last ? last.passages.slice(0, 8) : []
  const offered =
    earlier.length > 0 ? `\n\nPassages from earlier turns:\n${framedPassages(earlier, 'pages read earlier')}` : ''
  messages.push({ role: 'user', content: `${question}${offered}` })
  return messages
}

function endpointOf(input: ParsedAskInput, env: Env): { endpoint?: LlmEndpoint; note?: string } {
  if (!input.model) return {}
  try {
    const endpoint = llmEndpointFromEnv(env)
    return endpoint ? { endpoint } : {}
  } catch (error) {
    return { note: `${messageOf(error)}. The answer is extractive.` }
  }
}

/**
 * Answers a question from the web. With `SEARCH_LAYER_LLM_URL`/`_KEY`/`_MODEL` (and `model` not false) a model
 * searches, reads and answers with quotes; without one, or when it fails, the answer is extractive (`mode`), with
 * `modelNote` saying why. Every sentence is checked against the passages read; with none supported the ask
 * abstains. Saves the conversation and its transcript (0600). Throws `InputError` naming the field on bad input
 * or an unknown `conversationId`; never needs a key.
 */
export async function ask(input: AskInput, options: AskOptions = {}): Promise<AskResult> {
  const parsed = parseInput(AskInputSchema, input, 'ask input')
  const env = options.env ?? process.env
  const dir = options.historyDir ?? conversationsDir(env)
  const conversation = parsed.conversationId ? await loadConversation(dir, parsed.conversationId) : undefined
  const budget = AskBudgetSchema.parse(parsed.budget)
  const layer = options.layer ?? createSearchLayer({ env })
  const reading = {
    layer,
    env,
    question: parsed.question,
    readPages: parsed.readPages,
    ...(parsed.sources && { sources: parsed.sources }),
  }
  const hooks = {
    ...(options.onStep && { onStep: options.onStep }),
    ...(options.onEvent && { onEvent: options.onEvent }),
  }
  const run = new AskRun(reading, budget, conversation?.turns.at(-1)?.passages ?? [], hooks)
  const { endpoint, note } = endpointOf(parsed, env)
  let draft: Draft
  let exhausted: AskResult['usage']['exhausted']
  if (endpoint) {
    const outcome = await runModelLoop(run, endpoint, priorMessages(conversation, parsed.question), options.signal)
    exhausted = outcome.exhausted
    draft = outcome.ok
      ? modelDraft(run, parsed.question, outcome.text)
      : await extractiveDraft(run, parsed.question, outcome.note)
  } else draft = await extractiveDraft(run, parsed.question, note)
  const result = finish(run, parsed, draft, conversation, exhausted)
  return save(result, conversation, dir, options.transcriptPath)
}

function finish(
  run: AskRun,
  input: ParsedAskInput,
  draft: Draft,
  conversation: Conversation | undefined,
  exhausted: AskResult['usage']['exhausted'],
): AskResult {
  const passages = run.registry.all()
  const checked = {
    answer: draft.answer,
    sentences: draft.sentences,
    counts: draft.counts,
    truncated: false,
    droppedCitations: 0,
  }
  const cited = citedPassages(checked, passages)
  const fresh = run.intent
    ? freshness({ intent: run.intent, dates: cited.map((p) => run.dates.get(p.url)), now: new Date() })
    : undefined
  const b = run.budget
  return {
    id: conversation?.id ?? newConversationId(new Date()),
    turn: (conversation?.turns.length ?? 0) + 1,
    question: input.question,
    ...draft,
    passages,
    steps: run.steps,
    usage: {
      rounds: { used: run.rounds, limit: b.rounds },
      toolCalls: { used: run.toolCalls, limit: b.toolCalls },
      tokens: { used: run.tokens, limit: b.tokens, input: run.inputTokens, output: run.outputTokens },
      timeMs: { used: run.elapsedMs(), limit: b.timeMs },
      ...(exhausted && { exhausted }),
    },
    confidence: answerConfidence({ counts: draft.counts, passages: cited }),
    ...(fresh && { freshness: fresh }),
    searched: run.searched,
  }
}

async function save(
  result: AskResult,
  previous: Conversation | undefined,
  dir: string,
  transcriptPath: string | undefined,
): Promise<AskResult> {
  const conversation: Conversation = previous
    ? { ...previous, turns: [...previous.turns, result] }
    : { id: result.id, createdAt: new Date().toISOString(), turns: [result] }
  const transcript = transcriptPath ?? `${dir}/${result.id}.md`
  const saved = { ...result, transcript }
  conversation.turns[conversation.turns.length - 1] = saved
  await saveConversation(dir, conversation)
  await writePrivate(transcript, renderTranscript(conversation))
  return saved
}
