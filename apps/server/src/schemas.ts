import { z } from '@hono/zod-openapi'
import { FreshnessWindowSchema, PROVIDER_ERROR_KINDS, type ProviderErrorKind } from '@search-layer/core'
import { SearchRequestSchema } from '@search-layer/engine'
import { ReadPagesSchema } from '@search-layer/evidence/options'
import { SearchResponseSchema as EngineSearchResponseSchema } from '@search-layer/engine/schemas'
import { FETCH_ERROR_KINDS, type FetchErrorKind } from '@search-layer/page-fetch'
import { ReadablePageSchema as PageFetchReadablePageSchema } from '@search-layer/page-fetch/schemas'
import { ERROR_STATUS, type ErrorCode } from './error-responses.js'

// Response bodies come from the packages that produce them (`@search-layer/engine/schemas`,
// `@search-layer/page-fetch/schemas`); this file only names them for the OpenAPI document and adds what the server
// itself returns (errors, history, tools, the fetch route's `truncated`). schemas.test-d.ts holds `ErrorBody` equal.

const _ProviderErrorKindSchema = z.enum(PROVIDER_ERROR_KINDS as [ProviderErrorKind, ...ProviderErrorKind[]])
const ErrorKindSchema = z.enum([...new Set([...PROVIDER_ERROR_KINDS, ...FETCH_ERROR_KINDS])] as [
  ProviderErrorKind | FetchErrorKind,
  ...(ProviderErrorKind | FetchErrorKind)[],
])

/** The error body of every non-2xx response. */
export const ErrorBodySchema = z
  .object({
    error: z.string(),
    code: z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]),
    requestId: z.string().optional(),
    kind: ErrorKindSchema.optional().openapi({ description: 'The upstream error kind (provider or page-fetch).' }),
    status: z.number().optional().openapi({ description: "The upstream's HTTP status." }),
    issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  })
  .openapi('Error')

// Re-wrapped with this package's `z` (the one `@hono/zod-openapi` extends): a schema another package built may
// predate that extension and lack `.openapi()`. Field schemas, descriptions included, are the package's own.

/** The engine's `SearchResponse`, named for the document. */
export const SearchResponseSchema = z.object(EngineSearchResponseSchema.shape).openapi('SearchResponse')

/** One query as the server accepts it: the engine's rule, cut at the server's `maxQueryChars` (settings). */
const queryTextFor = (maxQueryChars: number) =>
  z.string().trim().min(1, 'must not be empty').max(maxQueryChars, `must be at most ${maxQueryChars} characters`)

/**
 * The `POST /v1/search` body of a server accepting queries of up to `maxQueryChars`: the engine's request schema
 * with `query` and `queries` cut at the server's limit, so the document states the limit the server enforces.
 */
export const searchBodySchemaFor = (maxQueryChars: number) =>
  SearchRequestSchema.safeExtend({
    query: queryTextFor(maxQueryChars).optional(),
    queries: z.array(queryTextFor(maxQueryChars)).min(1).max(10, 'at most 10 queries').optional(),
  })

/** `GET /v1/search` query parameters: the common subset of the POST body, with the engine's own field schemas. */
export const SearchQuerySchema = z.object({
  q: z.string().openapi({ description: 'The query.' }),
  mode: SearchRequestSchema.shape.mode,
  intent: SearchRequestSchema.shape.intent,
  // A date range has no query-string form: only the relative windows.
  freshness: FreshnessWindowSchema.optional(),
  num: z.coerce.number().int().min(1).max(20).optional(),
  sources: z.string().optional().openapi({ description: 'Comma list of provider ids (GET /readyz lists them).' }),
  cache: z.enum(['true', 'false']).optional(),
  wait: SearchRequestSchema.shape.wait.unwrap().optional(),
  patience: z.coerce
    .number()
    .pipe(SearchRequestSchema.shape.patienceMs.unwrap())
    .optional()
    .openapi({ description: 'The grace (ms) the slower engines get once the first ones answered (`patienceMs`).' }),
  // The count form of the body's `read`, checked by the same schema once coerced from the query string.
  read: z.coerce
    .number()
    .pipe(ReadPagesSchema)
    .optional()
    .openapi({ description: 'Read the top N results (0–10) and return `reads` and evidence `passages`.' }),
})

/** `GET /v1/search` query parameters of a server accepting queries of up to `maxQueryChars`. */
export const searchQuerySchemaFor = (maxQueryChars: number) =>
  SearchQuerySchema.extend({ q: queryTextFor(maxQueryChars).openapi({ description: 'The query.' }) })

/** One history entry. */
export const HistoryEntrySchema = z
  .object({
    query: z.string(),
    intent: z.string().nullable(),
    mode: z.string(),
    when: z.string().openapi({ description: 'ISO 8601 time the search finished.' }),
    count: z.number(),
    cached: z.boolean(),
    who: z.string().openapi({ description: 'The client identity: the API-key name or a short hash, never the key.' }),
  })
  .openapi('HistoryEntry')

/** One remembered search, as stored and as `/v1/history` lists it (the web app reads this type). */
export type HistoryEntry = z.infer<typeof HistoryEntrySchema>

/** One logged tool call, as `/v1/tool-calls` returns it. */
export const ToolCallEntrySchema = z
  .object({
    id: z.string(),
    tool: z.string(),
    via: z.enum(['api', 'mcp']),
    at: z.string(),
    ms: z.number(),
    args: z.string(),
    outcome: z.enum(['ok', 'error', 'failed']),
    status: z.number(),
    summary: z.string(),
  })
  .openapi('ToolCallEntry')
/** One logged tool call, as `/v1/tool-calls` lists it (the web app reads this type). */
export type ToolCallEntry = z.infer<typeof ToolCallEntrySchema>

/** A tool as `GET /api/tools` lists it. */
export const ToolDescriptionSchema = z
  .object({
    name: z.string(),
    description: z.string(),
    title: z.string(),
    parameters: z
      .record(z.string(), z.unknown())
      .openapi({ description: 'JSON Schema (draft-07) of the arguments, from the zod schema of @search-layer/tools.' }),
  })
  .openapi('Tool')

/** The result of `POST /api/tools/{name}`. */
export const ToolResultSchema = z
  .object({
    content: z.string().openapi({ description: 'Text for the model to read.' }),
    data: z.unknown().openapi({ description: 'The structured result, or {error: {kind, message}}.' }),
    isError: z.boolean(),
  })
  .openapi('ToolResult')

/** `POST /v1/fetch` body. */
export const FetchBodySchema = z
  .object({
    url: z.string().trim().min(1).openapi({ example: 'https://example.com/article' }),
    maxChars: z
      .number()
      .int()
      .min(200)
      .max(1_000_000)
      .optional()
      .openapi({ description: 'Cut markdown and text at this many characters.' }),
  })
  .strict()

/** page-fetch's `ReadablePage`, plus whether the route cut it to `maxChars`. */
export const ReadablePageSchema = z
  .object({ ...PageFetchReadablePageSchema.shape, truncated: z.boolean() })
  .openapi('ReadablePage')

/** `POST /v1/thread` body. */
export const ThreadBodySchema = z
  .object({
    url: z.string().trim().min(1).openapi({ example: 'https://github.com/octo/demo/issues/1' }),
    maxComments: z.number().int().min(0).max(1000).default(100),
  })
  .strict()

/** `POST /v1/refs` body. */
export const RefsBodySchema = z
  .object({
    urls: z.array(z.string().trim().min(1)).min(1).max(50, 'at most 50 URLs'),
  })
  .strict()

/** `format` and `maxChars` query parameters of the search routes. */
export const SearchFormatSchema = z.object({
  format: z
    .enum(['json', 'markdown', 'text'])
    .optional()
    .openapi({ description: "Return synthesis' answer-first form instead of the engine response." }),
  maxChars: z.coerce
    .number()
    .int()
    .min(200)
    .max(200_000)
    .optional()
    .openapi({ description: 'Fit the synthesis into this many characters.' }),
})
