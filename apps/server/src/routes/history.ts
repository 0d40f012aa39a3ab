import { createRoute, z } from '@hono/zod-openapi'
import type { HistoryStore } from '../history-store.js'
import { HistoryEntrySchema } from '../schemas.js'
import { type Security, commonErrors, createRouter, errors, json } from './responses.js'

/** `GET` and `DELETE /v1/history`: the caller's recent searches. */
export function historyRoutes({ history, security }: { history: HistoryStore; security: Security }) {
  const router = createRouter()
  router.openapi(
    createRoute({
      method: 'get',
      path: '/v1/history',
      operationId: 'listHistory',
      summary: "The caller's recent searches, newest first.",
      security,
      request: { query: z.object({ limit: z.coerce.number().int().min(1).max(1000).default(50) }) },
      responses: {
        200: json(z.object({ entries: z.array(HistoryEntrySchema) }), 'Recent searches'),
        ...errors('invalid_input'),
        ...commonErrors(),
      },
    }),
    async (c) => c.json({ entries: await history.list(c.get('who'), c.req.valid('query').limit) }, 200),
  )

  router.openapi(
    createRoute({
      method: 'delete',
      path: '/v1/history',
      operationId: 'deleteHistory',
      summary: "Forgets the caller's searches, or with `when` the one that finished then.",
      security,
      request: {
        query: z.object({
          when: z.string().optional().openapi({ description: "One entry's `when`, as /v1/history listed it." }),
        }),
      },
      responses: {
        200: json(z.object({ deleted: z.number() }), 'How many entries were removed'),
        ...errors('invalid_input'),
        ...commonErrors(),
      },
    }),
    async (c) => {
      const { when } = c.req.valid('query')
      const who = c.get('who')
      return c.json({ deleted: await (when ? history.remove(who, when) : history.clear(who)) }, 200)
    },
  )
  return router
}
