import { z } from 'zod'

/** One hit of the example API: `GET /search?q=…&n=…` answers `{ "items": [...] }`. */
const ExampleItemSchema = z.object({
  title: z.string(),
  link: z.string(),
  summary: z.string().default(''),
  /** ISO 8601 date, when the API knows one. */
  date: z.string().nullish(),
})

export const ExampleSearchResponseSchema = z.object({ items: z.array(ExampleItemSchema) })
