import { z } from 'zod'
import { ProviderNameSchema } from './schemas.js'

// What a provider answers, as schemas: the contract for providers and their tests. Its own module, away from the
// request schemas a search validates with: nothing in a search parses a response against these (each provider checks
// its vendor's body with its own schema, then `checkProviderResponse`), so a bundle that only searches (the CLI's)
// leaves the module out instead of building its schemas at load. Types come from it through type-only imports.

/** One result from one provider for one query, normalised. */
export const SearchResultSchema = z.object({
  title: z.string(),
  url: z.string(),
  snippet: z.string(),
  /** ISO 8601, or null when the provider gave no usable date. */
  publishedAt: z.string().nullable(),
  provider: ProviderNameSchema,
  /** 1-based position in the provider's answer. */
  rank: z.number().int().positive(),
  /** The provider's own relevance score, when it sends one. */
  providerScore: z.number().optional(),
  /** Provider-specific extras worth keeping (extra snippets, author, favicon…). */
  extra: z.record(z.string(), z.unknown()).optional(),
})
export type SearchResult = z.infer<typeof SearchResultSchema>

/** What one call cost, as the vendor counts it. */
export const CostSchema = z.object({
  /** Dollars, when known or estimated. */
  usd: z.number().nonnegative().optional(),
  /** Vendor credits or request units. */
  credits: z.number().nonnegative().optional(),
  /** Whether the figure is the vendor's own (`reported`) or our estimate from the price list. */
  basis: z.enum(['reported', 'estimated']),
})
export type Cost = z.infer<typeof CostSchema>

/** Rate-limit and quota hints from response headers. */
export const RateLimitInfoSchema = z.object({
  limit: z.number().optional(),
  remaining: z.number().optional(),
  /** Milliseconds until the window resets. */
  resetMs: z.number().optional(),
  /** Longer-window (monthly) quota, when the vendor sends a second value. */
  quotaLimit: z.number().optional(),
  quotaRemaining: z.number().optional(),
  quotaResetMs: z.number().optional(),
})
export type RateLimitInfo = z.infer<typeof RateLimitInfoSchema>

/** A provider's normalised answer. */
export const ProviderResponseSchema = z.object({
  results: z.array(SearchResultSchema),
  /** An AI-written answer, when the provider gives one (Tavily `include_answer`, Grok). */
  answer: z.string().optional(),
  cost: CostSchema.optional(),
  rateLimit: RateLimitInfoSchema.optional(),
  /** Results the provider sent that had no usable URL and were dropped. */
  dropped: z.number().int().nonnegative().default(0),
})
export type ProviderResponse = z.input<typeof ProviderResponseSchema>
