import { z } from 'zod'

// The page shapes, written once: extract.ts derives `ReadablePage` and `PageLink` from these with `z.infer` through a
// type-only import, erased at build. The schemas serve servers and clients that validate or document pages (the
// server's OpenAPI document is built from them) from a subpath of their own, `@search-layer/page-fetch/schemas`, so
// a process that only fetches never loads or builds them (schemas-off-fetch-path.test.ts checks).

/** A link on the page (`PageLink`). */
export const PageLinkSchema = z.object({
  url: z.string().describe('Absolute http(s) URL.'),
  /** May be empty for image links. */
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
  /** From `article:published_time`, JSON-LD `datePublished`, other date meta, or `<time datetime>`. */
  publishedAt: z.string().nullable().describe('ISO 8601 UTC publication time, when the page states one.'),
  excerpt: z.string().nullable(),
  markdown: z.string(),
  text: z.string(),
  links: z.array(PageLinkSchema),
  readerable: z.boolean().describe('Whether the page looks like an article; false pages fall back to the whole body.'),
  /** Then `markdown` is the escaped text and `links` the page's first 1,000 links. */
  degraded: z
    .string()
    .optional()
    .describe('Set when the page was returned as plain text instead of read readably (too complex, out of time).'),
})
