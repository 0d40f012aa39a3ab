import { AnswerCountsSchema, CheckedSentenceSchema, ConfidenceSchema, FreshnessSchema } from '@search-layer/answer'
import { MAX_QUERY_CHARS, ProviderNameSchema } from '@search-layer/core'
import { PassageSchema } from '@search-layer/passages'
import { z } from 'zod'

/** Limits of the input side: past them the question is refused (`InputError` naming the field). */
export const ASK_LIMITS = Object.freeze({ maxQuestionChars: MAX_QUERY_CHARS, maxRounds: 12, maxToolCalls: 40 })

/** What one ask may spend; each is reported in `usage`, and when one runs out the model answers from what it has. */
export const AskBudgetSchema = z.strictObject({
  /** Model turns that may call tools; one more turn, without tools, always follows for the answer. */
  rounds: z.number().int().min(1).max(ASK_LIMITS.maxRounds).default(4),
  /** Tool calls over the whole ask. */
  toolCalls: z.number().int().min(0).max(ASK_LIMITS.maxToolCalls).default(8),
  /** Model tokens (prompt + completion, summed over turns). */
  tokens: z.number().int().min(1_000).max(2_000_000).default(100_000),
  /** Wall time of the whole ask (ms). */
  timeMs: z.number().int().min(1_000).max(600_000).default(90_000),
})
export type AskBudget = z.output<typeof AskBudgetSchema>

/** A conversation id: what `ask` returns as `id` and takes back as `conversationId`. */
export const ConversationIdSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{5,63}$/, 'expected a conversation id such as 20261207-0126-3f9a1c')

/** What `ask` is asked. */
export const AskInputSchema = z.strictObject({
  question: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(ASK_LIMITS.maxQuestionChars, `must be at most ${ASK_LIMITS.maxQuestionChars} characters`),
  /** Carry the previous turns of this conversation (its questions, answers and passages). */
  conversationId: ConversationIdSchema.optional(),
  /** `false` answers extractively without asking a model even when one is configured. */
  model: z.boolean().default(true),
  budget: AskBudgetSchema.partial().default({}),
  /** Pages each `web_search` reads for passages. */
  readPages: z.number().int().min(0).max(5).default(3),
  /** Restrict every search to these engines. */
  sources: z.array(ProviderNameSchema).min(1).optional(),
})
export type AskInput = z.input<typeof AskInputSchema>
export type ParsedAskInput = z.output<typeof AskInputSchema>

/** One step of the ask: a model turn or a tool call, with what it took. */
export const AskStepSchema = z.object({
  n: z.number().int().positive(),
  kind: z.enum(['model', 'tool']),
  /** Model turn: its text (may be empty when it only called tools). */
  text: z.string().optional(),
  tool: z.string().optional(),
  args: z.unknown().optional(),
  /** One line on the result: what was found, read or went wrong. */
  summary: z.string(),
  /** Passage ids this step added. */
  passages: z.array(z.string()).default([]),
  ok: z.boolean(),
  ms: z.number().nonnegative(),
  tokens: z.number().int().nonnegative().optional(),
})
export type AskStep = z.infer<typeof AskStepSchema>

const Spent = z.object({ used: z.number().nonnegative(), limit: z.number().nonnegative() })

export const AskUsageSchema = z.object({
  rounds: Spent,
  toolCalls: Spent,
  tokens: Spent.extend({ input: z.number().int().nonnegative(), output: z.number().int().nonnegative() }),
  timeMs: Spent,
  /** The budget that ran out, when one did: the model was then made to answer from what it had. */
  exhausted: z.enum(['rounds', 'toolCalls', 'tokens', 'timeMs']).optional(),
})
export type AskUsage = z.infer<typeof AskUsageSchema>

/** What `ask` returns. */
export const AskResultSchema = z.object({
  /** The conversation id: pass it back as `conversationId` (`--continue`) to follow up. */
  id: ConversationIdSchema,
  turn: z.number().int().positive(),
  question: z.string(),
  answer: z.string(),
  mode: z.enum(['model', 'extractive']),
  sentences: z.array(CheckedSentenceSchema),
  counts: AnswerCountsSchema,
  passages: z.array(PassageSchema),
  steps: z.array(AskStepSchema),
  usage: AskUsageSchema,
  confidence: ConfidenceSchema,
  /** For a status or news question: whether every dated source cited is older than the intent's window. */
  freshness: FreshnessSchema.optional(),
  abstained: z.boolean(),
  /** Why the model did not write the answer (a refused key, an unreachable model, invalid tool calls, …). */
  modelNote: z.string().optional(),
  /** Every query searched during this turn. */
  searched: z.array(z.string()),
  /** Where the transcript was written. */
  transcript: z.string().optional(),
})
export type AskResult = z.infer<typeof AskResultSchema>

const TurnNumber = z.number().int().nonnegative()
const SinceStart = z.number().nonnegative().describe('Milliseconds since the ask started.')
const CallId = z.string().describe("The tool call's id: pairs `tool-start` with its `tool-end`.")

/**
 * What happens during an ask, as it happens (`onEvent`, the server's event stream): a model turn starts and ends, a
 * tool call starts (name, arguments) and ends (status, time, counts, error). `turn` numbers model turns from 1; a
 * tool call made without a model (the extractive answer's search) has turn 0.
 */
export const AskEventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('turn-start'),
    turn: TurnNumber,
    at: SinceStart,
    /** False when the model may not call tools this turn (a budget ran out, or the last turn): it must answer. */
    tools: z.boolean(),
  }),
  z.object({
    type: z.literal('turn-end'),
    turn: TurnNumber,
    at: SinceStart,
    ok: z.boolean(),
    ms: z.number().nonnegative(),
    /** `called web_search, web_fetch`, `answered`, `no answer`, or why the model call failed. */
    summary: z.string(),
    /** The tools the model called this turn, in order. */
    calls: z.array(z.string()),
    tokens: z.number().int().nonnegative().optional(),
  }),
  z.object({
    type: z.literal('tool-start'),
    call: CallId,
    turn: TurnNumber,
    at: SinceStart,
    tool: z.string(),
    args: z.unknown(),
  }),
  z.object({
    type: z.literal('tool-end'),
    call: CallId,
    turn: TurnNumber,
    at: SinceStart,
    tool: z.string(),
    ok: z.boolean(),
    ms: z.number().nonnegative(),
    /** One line on the result, as the step records it. */
    summary: z.string(),
    /** Search results found (`web_search`). */
    results: z.number().int().nonnegative().optional(),
    /** Passage ids the call added. */
    passages: z.array(z.string()),
    /** Why the call failed or was refused. */
    error: z.string().optional(),
  }),
])
export type AskEvent = z.infer<typeof AskEventSchema>
