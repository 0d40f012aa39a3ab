import { createRoute, z } from '@hono/zod-openapi'
import {
  type AskEvent,
  AskEventSchema,
  type AskInput,
  AskInputSchema,
  AskResultSchema,
  AskStepSchema,
  type AskStep,
  ask,
  loadConversation,
} from '@search-layer/ask'
import { type Env, redactSecrets } from '@search-layer/core'
import { streamSSE } from 'hono/streaming'
import type { AppContext } from '../app-context.js'
import type { ConversationScope } from '../conversation-scope.js'
import { describeError } from '../error-responses.js'
import { ErrorBodySchema } from '../schemas.js'
import { unknownConversation, withoutServerPath } from './conversations.js'
import { type Security, commonErrors, createRouter, errors } from './responses.js'

/** Options of `askRoutes`. */
export interface AskRoutesOptions {
  context: AppContext
  /** Where the model (`SEARCH_LAYER_LLM_*`) is read. */
  env: Env
  /** Each caller's conversations directory. */
  scope: ConversationScope
  /** The request deadline: an ask's time budget stays a second inside it. */
  requestTimeoutMs: number
  security: Security
}

/** The ask's time budget: what the body asks for, within the request's own deadline. */
function budgetWithin(input: AskInput, requestTimeoutMs: number): AskInput['budget'] {
  const ceiling = Math.max(1_000, requestTimeoutMs - 1_000)
  return { ...input.budget, timeMs: Math.min(input.budget?.timeMs ?? ceiling, ceiling) }
}

const [TurnStart, TurnEnd, ToolStart, ToolEnd] = AskEventSchema.options
const sseEvent = <N extends string, T extends z.ZodType>(event: N, data: T, description: string) =>
  z.object({ event: z.literal(event), data }).openapi({ description })

/**
 * One message of the ask's event stream: its SSE `event:` line is `event`, its `data:` line the JSON of `data`. Live
 * events come as they happen; `step` events repeat each recorded step (a turn when it ends, then its tool calls).
 */
const AskStreamEventSchema = z
  .discriminatedUnion('event', [
    sseEvent('turn-start', TurnStart, 'A model turn starts; `tools` is false when it must answer.'),
    sseEvent('tool-start', ToolStart, "A tool call starts: its name and arguments, and the id its 'tool-end' carries."),
    sseEvent('tool-end', ToolEnd, 'A tool call ends: ok, time, summary, results and passages found, or its error.'),
    sseEvent('turn-end', TurnEnd, 'A model turn ends, after the tool calls it asked for: time, tokens, what it did.'),
    sseEvent('step', AskStepSchema, "A recorded step, as in the result's `steps`."),
    sseEvent('done', AskResultSchema, 'The last event: the result, as the JSON response would have it.'),
    sseEvent('error', ErrorBodySchema, 'The last event when the ask failed after the stream began.'),
  ])
  .openapi('AskStreamEvent')

/**
 * `POST /v1/ask`: a model searches, reads and answers with quotes checked against the passages (or the extractive
 * answer, or an abstention). JSON by default; with `Accept: text/event-stream`, events as the ask runs
 * (`turn-start`, `tool-start`, `tool-end`, `turn-end`, and `step` for each recorded step), then `done` with the
 * result (or `error`). A `conversationId` that is not the caller's own is a 400 naming the field before any event (the same for one
 * that never existed).
 */
export function askRoutes({ context, env, scope, requestTimeoutMs, security }: AskRoutesOptions) {
  const router = createRouter()
  router.openapi(
    createRoute({
      method: 'post',
      path: '/v1/ask',
      operationId: 'ask',
      summary:
        'Answers a question from the web: searches, reads, cites exact quotes (each checked), or abstains; extractive without a model.',
      security,
      request: { body: { required: true, content: { 'application/json': { schema: AskInputSchema } } } },
      responses: {
        200: {
          description:
            'The answer (JSON), or with `Accept: text/event-stream` the events as they happen (`turn-start`, `tool-start`, `tool-end`, `turn-end`, `step`), then `done` with the answer or `error`',
          content: {
            'application/json': { schema: AskResultSchema },
            'text/event-stream': { schema: AskStreamEventSchema },
          },
        },
        ...errors('invalid_input', 'body_too_large'),
        ...commonErrors(),
      },
    }),
    async (c) => {
      const body = c.req.valid('json')
      const input: AskInput = { ...body, budget: budgetWithin(body, requestTimeoutMs) }
      const dir = scope(c.req.header('authorization'))
      // Checked before any event, so an id the caller does not own is the usual 400 and not an error event.
      if (input.conversationId && !(await loadConversation(dir, input.conversationId).catch(() => undefined)))
        return unknownConversation(c, input.conversationId, 'invalid_input')
      const signal = c.get('signal')
      const layer = context.layerFor({ who: c.get('who'), signal })
      if (!(c.req.header('accept') ?? '').includes('text/event-stream')) {
        const result = await ask(input, { env, layer, signal, historyDir: dir })
        return c.json(withoutServerPath(result), 200)
      }
      c.header('X-Accel-Buffering', 'no')
      return streamSSE(c, async (sse) => {
        // One chain, so events leave in the order they happened whatever each write waits for.
        let sent: Promise<void> = Promise.resolve()
        const send = (event: string, data: unknown) => {
          sent = sent.then(() => sse.writeSSE({ event, data: JSON.stringify(data) }))
        }
        const onEvent = (event: AskEvent) => send(event.type, event)
        const onStep = (step: AskStep) => send('step', step)
        try {
          const result = await ask(input, { env, layer, signal, historyDir: dir, onStep, onEvent })
          await sent
          await sse.writeSSE({ event: 'done', data: JSON.stringify(withoutServerPath(result)) })
        } catch (error) {
          await sent
          const { body: failure } = describeError(error)
          await sse.writeSSE({
            event: 'error',
            data: JSON.stringify({
              ...failure,
              error: redactSecrets(String(failure.error)),
              requestId: c.get('requestId'),
            }),
          })
        }
      })
    },
  )
  return router
}
