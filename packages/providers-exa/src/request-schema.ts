import { z } from 'zod'

// What this package sends, as schemas: the tests check the built requests against them and the types come from them
// (type-only imports). Nothing parses a request at run time, so a search never loads this module.

/** Exa's search modes; `auto` lets Exa pick. Deep modes run a slower research pass. */
const ExaSearchTypeSchema = z.enum([
  'auto',
  'fast',
  'instant',
  'neural',
  'keyword',
  'deep-lite',
  'deep',
  'deep-reasoning',
])
export type ExaSearchType = z.infer<typeof ExaSearchTypeSchema>

/** The body this package sends to `POST /search` (built by `buildExaRequest`). */
export const ExaSearchRequestSchema = z.object({
  query: z.string().min(1),
  type: ExaSearchTypeSchema,
  numResults: z.number().int().min(1).max(100),
  contents: z.object({
    highlights: z.object({ maxCharacters: z.number().int().positive() }).optional(),
    text: z.object({ maxCharacters: z.number().int().positive() }).optional(),
  }),
  includeDomains: z.array(z.string()).optional(),
  excludeDomains: z.array(z.string()).optional(),
  startPublishedDate: z.iso.datetime().optional(),
  endPublishedDate: z.iso.datetime().optional(),
  /** One string of up to five words the page text must contain. */
  includeText: z.array(z.string()).max(1).optional(),
  /** One string of up to five words the page text must not contain. */
  excludeText: z.array(z.string()).max(1).optional(),
  userLocation: z
    .string()
    .regex(/^[A-Z]{2}$/)
    .optional(),
  category: z.string().optional(),
})
export type ExaSearchRequest = z.infer<typeof ExaSearchRequestSchema>
