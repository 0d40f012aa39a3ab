import { z } from 'zod'

// Its own module, as the response schemas are: a bundle that only searches (the CLI's) leaves it out.

/** A page address an agent gives a tool: http(s), at most 2,048 characters (the tools' and the ask's one rule). */
export const HttpUrlSchema = z
  .string()
  .trim()
  .max(2048)
  .refine((value) => /^https?:\/\/[^\s/]+/i.test(value), 'expected an http(s) URL such as https://example.com/page')
