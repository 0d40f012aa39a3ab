import { type AskResult, AskResultSchema, ConversationIdSchema, ask, renderTurn } from '@search-layer/ask'
import type { Env } from '@search-layer/core'
import type { SearchLayer } from '@search-layer/engine'
import { type ToolResult, errorResult } from '@search-layer/tools'
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import { mcpOutputSchema } from './_output-schema.js'

/** `answer`'s input: the question, and the conversation to follow up on. */
const AnswerInputSchema = z.strictObject({
  question: z.string().trim().min(1).max(2_000).describe('The question, in any language.'),
  conversation_id: ConversationIdSchema.optional().describe(
    'The `id` of an earlier answer: the question is then a follow-up in that conversation.',
  ),
})

const DESCRIPTION =
  'Answer a question from the web in one call: searches, reads the best pages and answers with exact quotes, each ' +
  'checked against the passage it cites (supported, unverified or uncited), or abstains when nothing read supports ' +
  'an answer. Uses the model in SEARCH_LAYER_LLM_URL when set, else answers extractively. Returns the answer with ' +
  'each sentence marked and its sources; pass the returned id as conversation_id to follow up.'

/** The result as the client reads it: the marked answer as text, the whole result as structured data. */
function resultOf(result: AskResult): ToolResult {
  const text = `${renderTurn(result)}\n\nConversation id: ${result.id}`
  return { content: text, data: result }
}

/** Registers `answer` (read-only, open-world) on an MCP server; failures are `isError` results. */
export function registerAnswerTool(
  server: McpServer,
  options: { env: Env; layer: SearchLayer; toResult: (result: ToolResult) => CallToolResult },
): void {
  server.registerTool(
    'answer',
    {
      title: 'Answer with checked quotes',
      description: DESCRIPTION,
      inputSchema: AnswerInputSchema,
      outputSchema: mcpOutputSchema(AskResultSchema),
      annotations: { title: 'Answer with checked quotes', readOnlyHint: true, openWorldHint: true },
    },
    async ({ question, conversation_id }, extra): Promise<CallToolResult> => {
      try {
        const result = await ask(
          { question, ...(conversation_id && { conversationId: conversation_id }) },
          { env: options.env, layer: options.layer, signal: extra.signal },
        )
        return options.toResult(resultOf(result))
      } catch (error) {
        return options.toResult(errorResult(error))
      }
    },
  )
}
