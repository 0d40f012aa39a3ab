import { createRoute, z } from '@hono/zod-openapi'
import {
  type AskInput,
  AskInputSchema,
  AskResultSchema,
  type AskStep,
  ask,
  conversationsDir,
  loadConversation,
} from '@search-layer/ask'
import { type Env, redactSecrets } from '@search-layer/core'
import { streamSSE } from 'hono/streaming'
import type { AppContext } from '../app-context.js'
import { describeError } from '../error-responses.js'
import { type Security, commonErrors, createRouter, errors } from './responses.js'

/** Options of `askRoutes`. */
export interface AskRoutesOptions {
  context: AppContext
  /** Where the model (`SEARCH_LAYER_LLM_*`) and the conversations directory are read. */
  env: Env
  /** The request deadline: an ask's time budget stays a second inside it. */
  requestTimeoutMs: number
  security: Security
}

/** The ask's time budget: what the body asks for, within the request's own deadline. */
function budgetWithin(input: AskInput, requestTimeoutMs: number): AskInput['budget'] {
  const ceiling = Math.max(1_000, requestTimeoutMs - 1_000)
  return { ...input.budget, timeMs: Math.min(input.budget?.timeMs ?? ceiling, ceiling) }
}

/**
 * `POST /v1/ask`: a model searches, reads and answers with quotes checked against the passages (or the extractive
 * answer, or an abstention). JSON by default; with `Accept: text/event-stream`, one `step` event per model turn
 * and tool call, then `done` with the result (or `error`). An unknown `conversationId` is a 400 before any event.
 */
export function askRoutes({ context, env, requestTimeoutMs, security }: AskRoutesOptions) {
  const router = createRouter()
  const dir = conversationsDir(env)
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
          description: 'The answer (JSON), or with `Accept: text/event-stream` `step` events then `done`',
          content: {
            'application/json': { schema: AskResultSchema },
            'text/event-stream': { schema: z.string() },
          },
        },
        ...errors('invalid_input', 'body_too_large'),
        ...commonErrors(),
      },
    }),
    async (c) => {
      const body = c.req.valid('json')
      const input: AskInput = { ...body, budget: budgetWithin(body, requestTimeoutMs) }
      // Checked before any event, so an unknown id is the usual 400 and not an error event.
      if (input.conversationId) await loadConversation(dir, input.conversationId)
      const signal = c.get('signal')
      const layer = context.layerFor({ who: c.get('who'), signal })
      if (!(c.req.header('accept') ?? '').includes('text/event-stream')) {
        const result = await ask(input, { env, layer, signal, historyDir: dir })
        return c.json(result, 200)
      }
      c.header('X-Accel-Buffering', 'no')
      return streamSSE(c, async (sse) => {
        const steps: Promise<void>[] = []
        const onStep = (step: AskStep) => {
          steps.push(sse.writeSSE({ event: 'step', data: JSON.stringify(step) }))
        }
        try {
          const result = await ask(input, { env, layer, signal, historyDir: dir, onStep })
          await Promise.all(steps)
          await sse.writeSSE({ event: 'done', data: JSON.stringify(result) })
        } catch (error) {
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
