import { z } from '@hono/zod-openapi'
import {
  FreshnessSchema,
  FreshnessWindowSchema,
  IntentSchema,
  ModeSchema,
  PROVIDER_ERROR_KINDS,
  type ProviderErrorKind,
  ProviderNameSchema,
  QUERY_FILTER_KINDS,
  QueryOperatorSchema,
} from '@search-layer/core'
import { SearchRequestSchema } from '@search-layer/engine'
import { FETCH_ERROR_KINDS, type FetchErrorKind } from '@search-layer/page-fetch'
import { ERROR_STATUS, type ErrorCode } from './errors.js'

// The response schemas below restate the engine's `SearchResponse`, page-fetch's `ReadablePage` and this package's
// `ErrorBody`, which are TypeScript types, not schemas: _schemas.test-d.ts holds each equal to its type, so a field
// added or changed there fails typecheck until the document says it too.

const ProviderErrorKindSchema = z.enum(PROVIDER_ERROR_KINDS as [ProviderErrorKind, ...ProviderErrorKind[]])
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

/** One search result (the engine's `SearchResultOut`). */
export const SearchResultOutSchema = z.object({
  title: z.string(),
  url: z.string(),
  snippet: z.string(),
  published_date: z.string().nullable(),
  source: z.string(),
  sources: z.array(ProviderNameSchema),
  score: z.number().optional(),
  duplicates: z
    .array(z.object({ url: z.string(), title: z.string(), sources: z.array(ProviderNameSchema) }))
    .optional()
    .openapi({ description: 'The same page under other URLs (syndication, mirrors, print/AMP copies), folded in.' }),
  explain: z.record(z.string(), z.number()).optional(),
  date_unverified: z
    .literal(true)
    .optional()
    .openapi({ description: 'A date filter is in force and this result has no date: kept, not known to be in range.' }),
})

const QueryFilterKindSchema = z.enum(QUERY_FILTER_KINDS)

/** What the query's operators did (the engine's `OperatorReport`). */
const OperatorReportSchema = z
  .object({
    parsed: z.array(
      z.object({ name: z.enum(QueryOperatorSchema.shape.name.options), value: z.string(), raw: z.string() }),
    ),
    filters: z.array(QueryFilterKindSchema),
    native: z.record(ProviderNameSchema, z.array(QueryFilterKindSchema)),
    stripped: z.record(ProviderNameSchema, z.array(QueryFilterKindSchema)),
    dropped: z.number(),
    dropped_by: z.record(z.string(), z.number()),
    date_unverified: z.number(),
    unchecked: z.array(z.string()).optional(),
  })
  .openapi('OperatorReport', {
    description:
      'Query operators (site:, after:, "phrase"…): what was parsed, which filters each provider applied natively or had stripped, and what enforcement on the merged results dropped.',
  })

const ProviderReportSchema = z.object({
  status: z.enum(['ok', 'error', 'skipped']),
  results: z.number(),
  ms: z.number(),
  calls: z.number(),
  reason: z.string().optional(),
  fallback_for: ProviderNameSchema.optional(),
  error: z.object({ kind: ProviderErrorKindSchema, message: z.string() }).optional(),
  cost: z.object({ usd: z.number().optional(), credits: z.number().optional() }).optional(),
})

/** The engine's `SearchResponse`. */
export const SearchResponseSchema = z
  .object({
    query: z.string(),
    mode: ModeSchema,
    intent: IntentSchema.nullable(),
    intent_source: z.enum(['auto', 'explicit', 'none']),
    intent_by: z.enum(['rules', 'llm']).optional(),
    confidence: z.number().optional(),
    signals: z.array(z.object({ intent: IntentSchema, term: z.string(), lang: z.string() })).optional(),
    queries: z.array(z.string()),
    count: z.number(),
    results: z.array(SearchResultOutSchema),
    answer: z.string().optional(),
    answer_source: ProviderNameSchema.optional(),
    freshness_filter: FreshnessSchema.nullable(),
    operators: OperatorReportSchema.optional(),
    providers: z.record(ProviderNameSchema, ProviderReportSchema),
    partial: z.boolean(),
    cached: z.boolean(),
    warnings: z.array(z.string()),
    keyless_only: z
      .object({ sources: z.array(ProviderNameSchema), set: z.array(z.string()), message: z.string() })
      .optional()
      .openapi({ description: 'Present when no search engine key is set and only keyless sources answered.' }),
    timing: z.object({ total_ms: z.number() }),
  })
  .openapi('SearchResponse')

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
})

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

/** A readable page (page-fetch's `ReadablePage`). */
export const ReadablePageSchema = z
  .object({
    url: z.string(),
    finalUrl: z.string(),
    title: z.string().nullable(),
    byline: z.string().nullable(),
    siteName: z.string().nullable(),
    lang: z.string().nullable(),
    publishedAt: z.string().nullable(),
    excerpt: z.string().nullable(),
    markdown: z.string(),
    text: z.string(),
    links: z.array(z.object({ url: z.string(), text: z.string(), context: z.string() })),
    readerable: z.boolean(),
    degraded: z.string().optional().openapi({
      description: 'Set when the page was returned as plain text instead of read readably (too complex, out of time).',
    }),
    truncated: z.boolean(),
  })
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
