import { z } from 'zod'

/** The seven query intents; each maps to a search strategy (see `references/intent-strategies.json`). */
export const IntentSchema = z.enum(['factual', 'status', 'comparison', 'tutorial', 'exploratory', 'news', 'resource'])
export type Intent = z.infer<typeof IntentSchema>
export const INTENTS = IntentSchema.options

/** How wide a search goes: `fast` (one or two sources), `deep` (all sources), `answer` (an AI answer first). */
export const ModeSchema = z.enum(['fast', 'deep', 'answer'])
export type Mode = z.infer<typeof ModeSchema>
export const MODES = ModeSchema.options

/**
 * A provider id (`brave`, `my-news`): plain validated strings, not a closed list, so plug-ins can add sources.
 * Which ids exist is the registry's business (`ProviderDefinition`, `registeredProviderIdSchema`).
 */
export const ProviderNameSchema = z
  .string()
  .regex(
    /^[a-z][a-z0-9-]{1,31}$/,
    'expected a provider id: 2-32 characters of a-z, 0-9 and "-", starting with a letter',
  )
export type ProviderName = string

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date as YYYY-MM-DD')
  .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)), 'not a real calendar date')

/** A relative window: past day, week, month, year. */
export const FreshnessWindowSchema = z.enum(['pd', 'pw', 'pm', 'py'])
export type FreshnessWindow = z.infer<typeof FreshnessWindowSchema>

/** An explicit inclusive date range. */
export const DateRangeSchema = z
  .object({ from: isoDate, to: isoDate })
  .refine((r) => r.from <= r.to, { message: '`from` must not be after `to`' })
export type DateRange = z.infer<typeof DateRangeSchema>

/** How recent results must be: a relative window or an explicit `{from, to}` range. */
export const FreshnessSchema = z.union([FreshnessWindowSchema, DateRangeSchema], {
  // What zod says when neither fits ("Invalid input") names neither; a `{from, to}` object still gets its own issues.
  error: 'expected pd, pw, pm or py, or { from, to } dates as YYYY-MM-DD',
})
export type Freshness = z.infer<typeof FreshnessSchema>

const domain = z
  .string()
  .min(1)
  .max(253)
  .regex(/^[a-z0-9.-]+$/i, 'expected a bare domain such as example.com')

/** The longest query the house takes, in characters: a search's, a provider's, a per-query command's. */
export const MAX_QUERY_CHARS = 2000

/** What a provider is asked for. */
export const ProviderRequestSchema = z.object({
  query: z
    .string()
    .min(1, 'query must not be empty')
    .max(MAX_QUERY_CHARS, `query is longer than ${MAX_QUERY_CHARS} characters`),
  num: z.number().int().min(1).max(100).default(5),
  freshness: FreshnessSchema.optional(),
  includeDomains: z.array(domain).optional(),
  excludeDomains: z.array(domain).optional(),
  /** ISO 3166-1 alpha-2 country code, e.g. `us`, `cn`. */
  country: z
    .string()
    .regex(/^[a-z]{2}$/i, 'expected a two-letter country code')
    .optional(),
  /** BCP 47 language tag, e.g. `en`, `zh-hans`. */
  language: z.string().min(2).max(16).optional(),
  /** Exact phrases the results must contain (from `"quoted"` operators); their words are in `query` too. */
  phrases: z.array(z.string().min(1).max(200)).max(10).optional(),
  /** Words or phrases the results must not contain (from `-word` operators); not in `query`. */
  excludeTerms: z.array(z.string().min(1).max(200)).max(20).optional(),
  /** File extensions results must have, without the dot (from `filetype:pdf`). */
  fileTypes: z
    .array(z.string().regex(/^[a-z0-9]{1,10}$/, 'expected a file extension such as pdf'))
    .max(5)
    .optional(),
  signal: z.instanceof(AbortSignal).optional(),
})
export type ProviderRequest = z.input<typeof ProviderRequestSchema>
export type ParsedProviderRequest = z.output<typeof ProviderRequestSchema>
