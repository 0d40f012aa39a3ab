import { createRoute, z } from '@hono/zod-openapi'
import type { SearchLayer } from '@search-layer/engine'
import { liveSources, toolDefinitions, toolJsonSchema } from '@search-layer/tools'
import { type AppContext, isToolName, unknownToolMessage } from '../app-context.js'
import { ToolDescriptionSchema, ToolResultSchema } from '../schemas.js'
import { callOf } from '../request-env.js'
import { errorJson } from '../error-responses.js'
import { type Security, commonErrors, createRouter, errors, json } from './responses.js'

/** Options of `toolRoutes`. */
export interface ToolRoutesOptions {
  /** The shared engine: which sources `web_search` advertises. */
  layer: SearchLayer
  runTool: AppContext['runTool']
  security: Security
}

/** `GET /api/tools` (the tools in function-calling shape) and `POST /api/tools/{name}` (run one). */
export function toolRoutes({ layer, runTool, security }: ToolRoutesOptions) {
  const router = createRouter()
  router.openapi(
    createRoute({
      method: 'get',
      path: '/api/tools',
      operationId: 'listTools',
      summary:
        'The agent tools with JSON Schema parameters (OpenAI function-calling shape); web_search advertises only the configured engines.',
      security,
      responses: { 200: json(z.object({ tools: z.array(ToolDescriptionSchema) }), 'The tools'), ...commonErrors() },
    }),
    async (c) => {
      const definitions = toolDefinitions(await liveSources({ layer }))
      return c.json(
        {
          tools: definitions.map((d) => ({
            name: d.name,
            title: d.title,
            description: d.description,
            parameters: toolJsonSchema(d.inputSchema),
          })),
        },
        200,
      )
    },
  )

  router.openapi(
    createRoute({
      method: 'post',
      path: '/api/tools/{name}',
      operationId: 'callTool',
      summary:
        'Runs one tool with its function-call arguments. Tool failures are 200 with isError and a friendly sentence in content.',
      security,
      request: {
        params: z.object({ name: z.string().openapi({ param: { name: 'name', in: 'path' }, example: 'web_search' }) }),
        body: { required: true, content: { 'application/json': { schema: z.record(z.string(), z.unknown()) } } },
      },
      responses: {
        200: json(ToolResultSchema, 'The tool result'),
        ...errors('invalid_input', 'not_found', 'body_too_large'),
        ...commonErrors(),
      },
    }),
    async (c) => {
      const { name } = c.req.valid('param')
      if (!isToolName(name)) return errorJson(c, 'not_found', unknownToolMessage(name))
      return c.json(await runTool(name, c.req.valid('json'), callOf(c)), 200)
    },
  )
  return router
}
