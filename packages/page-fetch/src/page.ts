// The shape every reader of a body returns, whatever the body's type.

/** A link found in the main content of a page. */
export interface PageLink {
  /** Absolute http(s) URL. */
  url: string
  /** The anchor text, whitespace-collapsed (may be empty for image links). */
  text: string
  /** The anchor text with up to ~120 characters of the surrounding sentence on each side. */
  context: string
}

/** The readable content of a page: main text as markdown and plain text, metadata, and the links of the main content. */
export interface ReadablePage {
  url: string
  finalUrl: string
  title: string | null
  byline: string | null
  siteName: string | null
  /** BCP 47 language tag from `<html lang>` or `content-language`, as written by the page. */
  lang: string | null
  /** ISO 8601 UTC, from `article:published_time`, JSON-LD `datePublished`, other date meta, or `<time datetime>`. */
  publishedAt: string | null
  excerpt: string | null
  markdown: string
  text: string
  links: PageLink[]
  /** Whether the page looks like an article (Readability's `isProbablyReaderable`); false pages fall back to the whole body. */
  readerable: boolean
  /**
   * Set when the page was not extracted readably but degraded to plain text, saying why (too deep, too many elements
   * or links, out of time or memory). `markdown` is then the escaped text and `links` the page's first 1,000 links.
   */
  degraded?: string
}
