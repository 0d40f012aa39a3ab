import {
  FreshnessSchema,
  IntentSchema,
  ModeSchema,
  PROVIDER_ERROR_KINDS,
  type ProviderErrorKind,
  ProviderNameSchema,
  QUERY_FILTER_KINDS,
  QueryOperatorSchema,
} from '@search-layer/core'
import { z } from 'zod'

// The response types in response.ts, as zod schemas, for servers and clients that validate or document responses
// (the server's OpenAPI document is built from these). A subpath of its own, `@search-layer/engine/schemas`, so a
// process that only searches never builds them. schemas.test-d.ts holds each equal to its type.

const ProviderErrorKindSchema = z.enum(PROVIDER_ERROR_KINDS as [ProviderErrorKind, ...ProviderErrorKind[]])
const QueryFilterKindSchema = z.enum(QUERY_FILTER_KINDS)

/** One result (`SearchResultOut`). */
export const SearchResultOutSchema = z.object({
  title: z.string(),
  url: z.string(),
  snippet: z.string(),
  published_date: z.string().nullable(),
  source: z.string().describe('The sources that returned it, e.g. "brave, exa".'),
  sources: z.array(ProviderNameSchema),
  score: z.number().optional().describe('Present when the results were scored (an intent applied).'),
  date_unverified: z
    .literal(true)
    .optional()
    .describe('A date filter is in force and this result has no date: kept, not known to be in range.'),
  duplicates: z
    .array(z.object({ url: z.string(), title: z.string(), sources: z.array(ProviderNameSchema) }))
    .optional()
    .describe('The same page under other URLs (syndication, mirrors, print/AMP copies), folded in.'),
  explain: z
    .record(z.string(), z.number())
    .optional()
    .describe('With `explain`: the score components, `near_duplicates` and `demoted_from`.'),
})

/** What the query's operators did (`OperatorReport`). */
export const OperatorReportSchema = z
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
  .describe(
    'Query operators (site:, after:, "phrase"…): what was parsed, which filters each provider applied natively or had stripped, and what enforcement on the merged results dropped.',
  )

/** How one provider fared (`ProviderReport`). */
export const ProviderReportSchema = z.object({
  status: z.enum(['ok', 'error', 'skipped']),
  results: z.number().describe('Raw results received, before deduplication.'),
  ms: z.number().describe('Longest call, in ms.'),
  calls: z.number(),
  reason: z.string().optional().describe('Why it was skipped or not used.'),
  fallback_for: ProviderNameSchema.optional().describe('The provider it stood in for.'),
  error: z.object({ kind: ProviderErrorKindSchema, message: z.string() }).optional(),
  cost: z.object({ usd: z.number().optional(), credits: z.number().optional() }).optional(),
})

/** `KeylessOnlyNotice`. */
export const KeylessOnlyNoticeSchema = z
  .object({ sources: z.array(ProviderNameSchema), set: z.array(z.string()), message: z.string() })
  .describe('Present when no search engine key is set and only keyless sources answered.')

/** The engine's answer to a search (`SearchResponse`). */
export const SearchResponseSchema = z.object({
  query: z.string(),
  mode: ModeSchema,
  intent: IntentSchema.nullable(),
  intent_source: z.enum(['auto', 'explicit', 'none']),
  intent_by: z.enum(['rules', 'llm']).optional().describe('Who classified an `auto` intent.'),
  confidence: z.number().optional(),
  signals: z
    .array(z.object({ intent: IntentSchema, term: z.string(), lang: z.string() }))
    .optional()
    .describe(
      'Why an `auto` intent was chosen: signal words (`lang` en/zh) and, when the learned classifier decided, the features it weighed most first (`lang` "model").',
    ),
  queries: z.array(z.string()),
  count: z.number(),
  results: z.array(SearchResultOutSchema),
  answer: z.string().optional(),
  answer_source: ProviderNameSchema.optional(),
  freshness_filter: FreshnessSchema.nullable(),
  operators: OperatorReportSchema.optional(),
  providers: z.record(ProviderNameSchema, ProviderReportSchema),
  partial: z.boolean().describe('Some providers failed or did not answer in time.'),
  cached: z.boolean(),
  warnings: z.array(z.string()),
  keyless_only: KeylessOnlyNoticeSchema.optional(),
  timing: z.object({ total_ms: z.number() }),
})
