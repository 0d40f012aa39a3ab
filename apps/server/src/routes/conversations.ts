import { createRoute, z } from '@hono/zod-openapi'
import { AskResultSchema, ConversationIdSchema, listConversations, loadConversation } from '@search-layer/ask'
import type { Context } from 'hono'
import type { ConversationScope } from '../conversation-scope.js'
import { errorJson } from '../error-responses.js'
import type { AppEnv } from '../request-env.js'
import { type Security, commonErrors, createRouter, errors, json } from './responses.js'

const ConversationSummarySchema = z
  .object({
    id: ConversationIdSchema,
    createdAt: z.string(),
    updatedAt: z.string(),
    turns: z.number().int().positive(),
    question: z.string().openapi({ description: 'The first question.' }),
    lastQuestion: z.string(),
  })
  .openapi('ConversationSummary')

const ConversationSchema = z
  .object({ id: ConversationIdSchema, createdAt: z.string(), turns: z.array(AskResultSchema) })
  .openapi('Conversation')

/**
 * The refusal of a conversation the caller cannot see: the same whether it never existed or is another caller's, so
 * an id tells nothing about anyone else. A 404 where the id is the resource (`GET /v1/conversations/{id}`), a 400
 * naming the field where it is part of a request (`POST /v1/ask`).
 */
export function unknownConversation(c: Context<AppEnv>, id: string, code: 'not_found' | 'invalid_input' = 'not_found') {
  return errorJson(c, code, `conversationId: no conversation ${JSON.stringify(id.slice(0, 80))} for this caller`, {
    issues: [{ path: 'conversationId', message: 'unknown conversation id' }],
  })
}

/**
 * A turn as an API caller gets it: without `transcript`, the server's own file path, which tells a caller about the
 * server's disk and is no address it can use.
 */
export function withoutServerPath<T extends { transcript?: string }>(turn: T): Omit<T, 'transcript'> {
  const { transcript: _, ...rest } = turn
  return rest
}

/** `GET /v1/conversations` and `GET /v1/conversations/{id}`: the caller's own asks, and nobody else's. */
export function conversationRoutes({ scope, security }: { scope: ConversationScope; security: Security }) {
  const router = createRouter()
  const dirOf = (c: Context<AppEnv>) => scope(c.req.header('authorization'))
  router.openapi(
    createRoute({
      method: 'get',
      path: '/v1/conversations',
      operationId: 'listConversations',
      summary:
        "The caller's conversations (POST /v1/ask), most recent first: each API key sees its own; with auth off there is one shared scope.",
      security,
      request: { query: z.object({ limit: z.coerce.number().int().min(1).max(500).default(50) }) },
      responses: {
        200: json(z.object({ conversations: z.array(ConversationSummarySchema) }), 'Conversations'),
        ...errors('invalid_input'),
        ...commonErrors(),
      },
    }),
    async (c) => c.json({ conversations: await listConversations(dirOf(c), c.req.valid('query').limit) }, 200),
  )
  router.openapi(
    createRoute({
      method: 'get',
      path: '/v1/conversations/{id}',
      operationId: 'getConversation',
      summary: "One of the caller's conversations with every turn; 404 for any other id.",
      security,
      request: { params: z.object({ id: ConversationIdSchema }) },
      responses: {
        200: json(ConversationSchema, 'The conversation'),
        ...errors('invalid_input', 'not_found'),
        ...commonErrors(),
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param')
      try {
        const conversation = await loadConversation(dirOf(c), id)
        return c.json({ ...conversation, turns: conversation.turns.map(withoutServerPath) }, 200)
      } catch {
        return unknownConversation(c, id)
      }
    },
  )
  return router
}
