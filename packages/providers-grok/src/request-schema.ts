import { z } from 'zod'

// What this package sends, as schemas: the tests check the built requests against them and the types come from them
// (type-only imports). Nothing parses a request at run time, so a search never loads this module.

/** The `web_search` tool entry. xAI allows at most 5 domains per list, and not both lists at once. */
const GrokWebSearchToolSchema = z.object({
  type: z.literal('web_search'),
  allowed_domains: z.array(z.string()).max(5).optional(),
  excluded_domains: z.array(z.string()).max(5).optional(),
})
export type GrokWebSearchTool = z.infer<typeof GrokWebSearchToolSchema>

const MessageSchema = z.object({ role: z.enum(['system', 'user']), content: z.string() })

/** The `POST /responses` body this package sends. */
export const GrokResponsesRequestSchema = z.object({
  model: z.string().min(1),
  input: z.array(MessageSchema).min(1),
  tools: z.array(GrokWebSearchToolSchema).length(1),
  store: z.literal(false),
})
export type GrokResponsesRequest = z.infer<typeof GrokResponsesRequestSchema>

/** The `POST /chat/completions` body of the fallback mode for OpenAI-compatible proxies. */
export const GrokChatRequestSchema = z.object({
  model: z.string().min(1),
  messages: z.array(MessageSchema).min(1),
  temperature: z.number(),
  stream: z.literal(false),
})
export type GrokChatRequest = z.infer<typeof GrokChatRequestSchema>
