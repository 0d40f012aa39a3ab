import {
  MAX_QUERY_CHARS,
  FreshnessSchema,
  IntentSchema,
  ModeSchema,
  ProviderNameSchema,
  registeredProviderIdSchema,
} from '@search-layer/core'
import { ReadRequestSchema } from '@search-layer/evidence/options'
import { z } from 'zod'

const queryText = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(MAX_QUERY_CHARS, `must be at most ${MAX_QUERY_CHARS} characters`)
const domain = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?:https?:\/\/)?[a-z0-9.-]+\.[a-z0-9-]+\/?$/i, 'expected a domain such as example.com')
  .transform((d) =>
    d
      .replace(/^https?:\/\//, '')
      .replace(/\/$/, '')
      .replace(/^www\./, ''),
  )

/**
 * How long a search waits: `settled` (default) returns once the mode's first engines have answered and the others had
 * a grace (`patienceMs`), reporting those still running as `late`; `all` waits for every engine, up to the deadline.
 * One field for every caller: the request below, the tools' `wait`, the CLI's `--wait`, HTTP's `wait`.
 */
export const SearchWaitSchema = z.enum(['settled', 'all'])

/** The most `patienceMs` may be: the longest deadline a search takes. */
export const MAX_PATIENCE_MS = 120_000
const patienceRange = `must be between 0 and ${MAX_PATIENCE_MS} ms`

/** The grace (ms) the slower engines get once the first ones answered, 0-120000; the tools' `patience_ms`. */
export const PatienceMsSchema = z
  .number()
  .int('must be a whole number of milliseconds')
  .min(0, patienceRange)
  .max(MAX_PATIENCE_MS, patienceRange)

/**
 * The search request for a layer whose providers are `providerIds`: `sources` accepts exactly those and refuses any
 * other with the list. Without ids, any well-formed provider id is accepted (the layer checks it).
 */
export function searchRequestSchemaFor(providerIds?: readonly string[]) {
  const source = providerIds ? registeredProviderIdSchema(providerIds) : ProviderNameSchema
  return z
    .object({
      /** One query. */
      query: queryText.optional(),
      /** Several queries run side by side (skips automatic expansion). */
      queries: z.array(queryText).min(1).max(10, 'at most 10 queries').optional(),
      /** fast | deep | answer; chosen from the intent when absent. */
      mode: ModeSchema.optional(),
      /** `auto` classifies the query; `none` keeps the providers' fused order without scores. */
      intent: z.enum(['auto', 'none', ...IntentSchema.options]).optional(),
      freshness: FreshnessSchema.optional(),
      /** Results asked of each provider for each query. */
      num: z.number().int().min(1).max(20).default(5),
      /** Domains whose results get +0.2 authority. */
      domainBoost: z.array(domain).max(50).default([]),
      includeDomains: z.array(domain).max(50).optional(),
      excludeDomains: z.array(domain).max(50).optional(),
      /** Restrict to these providers. */
      sources: z.array(source).min(1).optional(),
      /** Overall deadline: at this point whatever has arrived is returned. */
      deadlineMs: z.number().int().min(100).max(120_000).default(15_000),
      /**
       * `settled` (default): once the mode's first engines have answered, the others get a grace period
       * (`patienceMs`), then the search returns and those still running are reported `late`. `all`: wait for every
       * engine, up to the deadline.
       */
      wait: SearchWaitSchema.default('settled'),
      /** The grace after the first engines answered (ms); default the larger of 300 and half the time elapsed. */
      patienceMs: PatienceMsSchema.optional(),
      /** Most sub-queries automatic expansion may produce. */
      maxQueries: z.number().int().min(1).max(6).default(3),
      /** Return each score's components. */
      explain: z.boolean().default(false),
      /** Use and fill the cache. */
      cache: z.boolean().default(true),
      /**
       * Read the top results and return evidence passages: a page count 0–10 (`read: 5`) or `{ pages, budgetTokens,
       * timeoutMs, question }`, `question` being what the passages should answer beside the queries (an agent's
       * terse query, its user's question). The providers then get the deadline less min(timeoutMs, a quarter of it);
       * reading the rest.
       */
      read: ReadRequestSchema.optional(),
    })
    .strict()
    .refine((r) => r.query !== undefined || r.queries !== undefined, {
      message: 'give `query` or `queries`',
      path: ['query'],
    })
}

type SearchRequestSchemaType = ReturnType<typeof searchRequestSchemaFor>

/** What a caller asks the search layer for. Every field but `query`/`queries` is optional. */
export type SearchRequest = z.input<SearchRequestSchemaType>
export type ParsedSearchRequest = z.output<SearchRequestSchemaType>
