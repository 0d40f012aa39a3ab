import { z } from 'zod'

// What this package sends, as schemas: the tests check the built requests against them and the types come from them
// (type-only imports). Nothing parses a request at run time, so a search never loads this module.

/** The query string this package sends (documented for tests and readers; built by `buildBraveQuery`). */
export const BraveSearchQuerySchema = z.object({
  q: z.string().min(1).max(400),
  count: z.number().int().min(1).max(20),
  text_decorations: z.literal(false),
  extra_snippets: z.boolean(),
  safesearch: z.enum(['off', 'moderate', 'strict']),
  freshness: z
    .string()
    .regex(/^(?:pd|pw|pm|py|\d{4}-\d{2}-\d{2}to\d{4}-\d{2}-\d{2})$/)
    .optional(),
  country: z
    .string()
    .regex(/^[A-Z]{2}$|^ALL$/)
    .optional(),
  search_lang: z.string().optional(),
})
export type BraveSearchQuery = z.infer<typeof BraveSearchQuerySchema>
