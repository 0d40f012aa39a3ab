import { z } from 'zod'

// `ReadablePage` as a zod schema, for servers and clients that validate or document it (the server's OpenAPI
// document is built from it). A subpath of its own, `@search-layer/page-fetch/schemas`, so a process that only
// fetches never builds it. schemas.test-d.ts holds it equal to the type.

/** A link on the page (`PageLink`). */
export const PageLinkSchema = z.object({
  url: z.string().describe('Absolute http(s) URL.'),
  text: z.string().describe('The anchor text, whitespace-collapsed.'),
  context: z.string().describe('The anchor text with up to ~120 characters of the surrounding sentence each side.'),
})

/** A page read readably (`ReadablePage`). */
export const ReadablePageSchema = z.object({
  url: z.string(),
  finalUrl: z.string(),
  title: z.string().nullable(),
  byline: z.string().nullable(),
  siteName: z.string().nullable(),
  lang: z.string().nullable().describe('BCP 47 language tag from `<html lang>` or `content-language`.'),
  publishedAt: z.string().nullable().describe('ISO 8601 UTC publication time, when the page states one.'),
  excerpt: z.string().nullable(),
  markdown: z.string(),
  text: z.string(),
  links: z.array(PageLinkSchema),
  readerable: z.boolean().describe('Whether the page looks like an article; false pages fall back to the whole body.'),
  degraded: z
    .string()
    .optional()
    .describe('Set when the page was returned as plain text instead of read readably (too complex, out of time).'),
})
