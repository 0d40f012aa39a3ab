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
import { PassageSchema, ReadReportSchema } from '@search-layer/evidence'
import { z } from 'zod'

// The response shapes, written once: response.ts derives each type from these with `z.infer` through a type-only
// import, erased at build. The schemas serve servers and clients that validate or document responses (the server's
// OpenAPI document is built from them) from a subpath of their own, `@search-layer/engine/schemas`, so a process
// that only searches never loads or builds them (test/schemas-off-search-path.test.ts checks).

const ProviderErrorKindSchema = z.enum(PROVIDER_ERROR_KINDS as [ProviderErrorKind, ...ProviderErrorKind[]])
const QueryFilterKindSchema = z.enum(QUERY_FILTER_KINDS)

/** One result as callers see it (`SearchResultOut`); field names match the original skill's JSON output. */
export const SearchResultOutSchema = z.object({
  title: z.string(),
  url: z.string(),
  snippet: z.string(),
  published_date: z.string().nullable(),
  /** "brave, exa" */
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
  /**
   * With `explain`: the score components, plus `near_duplicates` (how many copies were folded in) and `demoted_from`
   * (the 1-based place before site diversity moved it down).
   */
  explain: z
    .record(z.string(), z.number())
    .optional()
    .describe('With `explain`: the score components, `near_duplicates` and `demoted_from`.'),
})

/**
 * Query operators and request filters in a search (`OperatorReport`): what was parsed, which filters each called
 * provider applied natively (the rest were stripped from what it was sent) and what enforcement on the merged results
 * dropped.
 */
export const OperatorReportSchema = z
  .object({
    /** The operators as typed, e.g. `{ name: 'site', value: 'github.com', raw: 'site:github.com' }`. */
    parsed: z.array(
      z.object({ name: z.enum(QueryOperatorSchema.shape.name.options), value: z.string(), raw: z.string() }),
    ),
    /** The filters in force (operators and the request's `includeDomains`/`excludeDomains`). */
    filters: z.array(QueryFilterKindSchema),
    /** Per provider called: filters it applied through a native parameter or operator. */
    native: z.record(ProviderNameSchema, z.array(QueryFilterKindSchema)),
    /** Per provider called: filters it was not sent (its query text had the operators removed). */
    stripped: z.record(ProviderNameSchema, z.array(QueryFilterKindSchema)),
    /** Merged results enforcement removed, in all and by the filter they failed. */
    dropped: z.number(),
    dropped_by: z.record(z.string(), z.number()),
    /** Results kept under a date filter without a date (`date_unverified` on each). */
    date_unverified: z.number(),
    /** Filters enforcement could not check (`lang` for a Latin-script language; phrases are never checked). */
    unchecked: z.array(z.string()).optional(),
  })
  .describe(
    'Query operators (site:, after:, "phrase"…): what was parsed, which filters each provider applied natively or had stripped, and what enforcement on the merged results dropped.',
  )

/** How one provider fared in one search (`ProviderReport`). */
export const ProviderReportSchema = z.object({
  status: z
    .enum(['ok', 'error', 'skipped', 'late'])
    .describe(
      '`late`: still running when the search settled (`wait: "settled"`); not a failure, and its circuit is untouched.',
    ),
  results: z.number().describe('Raw results received, before deduplication.'),
  ms: z.number().describe('Longest call, in ms; for a `late` provider, how long its calls had been running.'),
  calls: z.number(),
  late_calls: z
    .number()
    .optional()
    .describe('Calls still running when the search settled (cut off or finishing later).'),
  /** Why it was skipped (not configured, not in this mode, cooling down, budget). */
  reason: z.string().optional().describe('Why it was skipped or not used.'),
  fallback_for: ProviderNameSchema.optional().describe('The provider it stood in for.'),
  error: z.object({ kind: ProviderErrorKindSchema, message: z.string() }).optional(),
  cost: z.object({ usd: z.number().optional(), credits: z.number().optional() }).optional(),
})

/** Only keyless sources answered (no engine is configured): which, and the key variables that would add engines. */
export const KeylessOnlyNoticeSchema = z
  .object({
    /** The sources that answered, e.g. `['duckduckgo', 'wikipedia']`. */
    sources: z.array(ProviderNameSchema),
    /** The engines' key variables, from their definitions, e.g. `['BRAVE_API_KEY', 'EXA_API_KEY']`. */
    set: z.array(z.string()),
    /** One sentence for people: `only keyless sources were used (duckduckgo); set BRAVE_API_KEY … for more`. */
    message: z.string(),
  })
  .describe('Present when no search engine key is set and only keyless sources answered.')

/** The engine's answer to a search (`SearchResponse`). */
export const SearchResponseSchema = z.object({
  query: z.string(),
  mode: ModeSchema,
  intent: IntentSchema.nullable(),
  /** How the intent was decided. */
  intent_source: z.enum(['auto', 'explicit', 'none']),
  /** Who classified an `auto` intent: the rules, or the model when the rules were unsure (`intentModel`). */
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
  /** Present when the query had operators or the request had domain filters. */
  operators: OperatorReportSchema.optional(),
  providers: z.record(ProviderNameSchema, ProviderReportSchema),
  partial: z.boolean().describe('Some providers failed or did not answer in time.'),
  cached: z.boolean(),
  warnings: z.array(z.string()),
  keyless_only: KeylessOnlyNoticeSchema.optional(),
  reads: z
    .array(ReadReportSchema)
    .optional()
    .describe('With `read`: what became of each top result the search set out to read, in result order.'),
  passages: z
    .array(PassageSchema)
    .optional()
    .describe(
      "With `read`: the best passages of the pages read, under the token budget; `start`/`end` are offsets into that page's markdown.",
    ),
  timing: z.object({ total_ms: z.number() }),
})
