import { z } from 'zod'

// What this package sends, as schemas: the tests check the built requests against them and the types come from them
// (type-only imports). Nothing parses a request at run time, so a search never loads this module.

/** The `POST /search` body this package sends. */
export const TavilySearchRequestSchema = z.object({
  query: z.string().min(1),
  search_depth: z.enum(['basic', 'advanced']),
  topic: z.enum(['general', 'news']),
  max_results: z.number().int().min(1).max(20),
  time_range: z.enum(['day', 'week', 'month', 'year']).optional(),
  /** Only meaningful with `topic: "news"`. */
  days: z.number().int().positive().optional(),
  start_date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
  end_date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
  include_answer: z.boolean(),
  include_domains: z.array(z.string()).max(300).optional(),
  exclude_domains: z.array(z.string()).max(150).optional(),
  /** Full lowercase country name; only with `topic: "general"`. */
  country: z.string().optional(),
  include_usage: z.boolean().optional(),
})
export type TavilySearchRequest = z.infer<typeof TavilySearchRequestSchema>
