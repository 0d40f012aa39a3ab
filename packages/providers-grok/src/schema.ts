import { lazySchema } from '@search-layer/core'
import { z } from 'zod'

// xAI Responses API with the server-side `web_search` tool (https://docs.x.ai/developers/tools/web-search,
// https://docs.x.ai/developers/tools/citations). Live Search (`search_parameters`) answers 410 Gone and is not used.
// Response schemas are lenient: optional fields are `.nullish()`, unknown fields pass through, and
// output items / annotations are validated one by one so a single odd item never sinks the answer.

const num = z.number().nullish()

/** A `url_citation` annotation on an `output_text` part; indexes are character offsets into that part. */
export const GrokUrlCitationSchema = z.looseObject({
  type: z.literal('url_citation'),
  url: z.string().nullish(),
  title: z.string().nullish(),
  start_index: num,
  end_index: num,
})

/** An `output_text` content part of a `message` output item. */
export const GrokOutputTextSchema = z.looseObject({
  type: z.literal('output_text'),
  text: z.string().nullish(),
  annotations: z.array(z.unknown()).nullish(),
})

/** A `message` output item (other item types, e.g. `web_search_call` or `reasoning`, are skipped). */
export const GrokMessageItemSchema = z.looseObject({
  type: z.literal('message'),
  role: z.string().nullish(),
  content: z.array(z.unknown()).nullish(),
})

/** Token and server-side tool usage; `cost_in_usd_ticks` is 1e-10 USD. */
const GrokUsageSchema = z.looseObject({
  input_tokens: num,
  output_tokens: num,
  total_tokens: num,
  num_sources_used: num,
  num_server_side_tools_used: num,
  cost_in_usd_ticks: num,
  server_side_tool_usage_details: z.looseObject({ web_search_calls: num }).nullish(),
})

/** The `POST /responses` 200 body. */
export const GrokResponsesResponseSchema = z.looseObject({
  id: z.string().nullish(),
  model: z.string().nullish(),
  status: z.string().nullish(),
  output: z.array(z.unknown()),
  usage: GrokUsageSchema.nullish(),
  /** Every URL the agent looked at, cited or not. */
  citations: z.array(z.unknown()).nullish(),
})

/** A chat completion (whole body, or one SSE chunk with `delta`). */
export const grokChatCompletionSchema = lazySchema(() =>
  z.looseObject({
    choices: z
      .array(
        z.looseObject({
          message: z.looseObject({ content: z.string().nullish() }).nullish(),
          delta: z.looseObject({ content: z.string().nullish() }).nullish(),
        }),
      )
      .nullish(),
    usage: z.looseObject({ prompt_tokens: num, completion_tokens: num }).nullish(),
  }),
)

/** One result the chat fallback asks the model for; names vary between models, so aliases are accepted. */
export const grokChatResultSchema = lazySchema(() =>
  z.looseObject({
    title: z.string().nullish(),
    url: z.string().nullish(),
    link: z.string().nullish(),
    snippet: z.string().nullish(),
    description: z.string().nullish(),
    summary: z.string().nullish(),
    published_at: z.string().nullish(),
    published_date: z.string().nullish(),
    publishedAt: z.string().nullish(),
    date: z.string().nullish(),
  }),
)

/** xAI error bodies: `{"code": "...", "error": "Incorrect API key provided: xa***..."}` or OpenAI-style `{"error": {"message"}}`. */
export const grokErrorSchema = lazySchema(() =>
  z.looseObject({
    code: z.union([z.string(), z.number()]).nullish(),
    error: z
      .union([
        z.string(),
        z.looseObject({
          message: z.string().nullish(),
          code: z.union([z.string(), z.number()]).nullish(),
          type: z.string().nullish(),
        }),
      ])
      .nullish(),
    message: z.string().nullish(),
  }),
)
