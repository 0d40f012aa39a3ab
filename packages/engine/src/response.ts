import type { ProviderErrorKind, ProviderName } from '@search-layer/core'
import type { z } from 'zod'
import type {
  KeylessOnlyNoticeSchema,
  OperatorReportSchema,
  ProviderReportSchema,
  SearchResponseSchema,
  SearchResultOutSchema,
} from './schemas.js'

// Each response shape is written once, as a zod schema in schemas.ts; the types are inferred from it. The import is
// type-only, erased at build: a process that only searches never loads the schemas.

/** One result as callers see it; field names match the original skill's JSON output. */
export type SearchResultOut = z.infer<typeof SearchResultOutSchema>

/** Query operators and request filters in a search: parsed, applied natively or stripped, and enforced. */
export type OperatorReport = z.infer<typeof OperatorReportSchema>

/** How one provider fared in one search. */
export type ProviderReport = z.infer<typeof ProviderReportSchema>

/** The engine's answer to a search. */
export type SearchResponse = z.infer<typeof SearchResponseSchema>

/** Only keyless sources answered (no engine is configured): which, and the key variables that would add engines. */
export type KeylessOnlyNotice = z.infer<typeof KeylessOnlyNoticeSchema>

/** A provider-call progress event (for terminals, MCP progress and logs). */
export type SearchProgress =
  | { type: 'started'; provider: ProviderName; query: string }
  | { type: 'done'; provider: ProviderName; query: string; results: number; ms: number }
  | { type: 'failed'; provider: ProviderName; query: string; kind: ProviderErrorKind; message: string; ms: number }
  | { type: 'skipped'; provider: ProviderName; reason: string }
