// The shape every reader of a body returns, whatever the body's type. Written once, as zod schemas in schemas.ts;
// the import is type-only, erased at build, so a process that only fetches never loads them.
import type { z } from 'zod'
import type { PageLinkSchema, ReadablePageSchema } from './schemas.js'

/** A link of the page's main content. */
export type PageLink = z.infer<typeof PageLinkSchema>

/** The readable content of a page: main text as markdown and plain text, metadata, and the links of the main content. */
export type ReadablePage = z.infer<typeof ReadablePageSchema>
