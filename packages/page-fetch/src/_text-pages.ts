import { DOMParser } from 'linkedom'
import { type Doc, type El, blockText, collapse, orNull, resolveUrl } from './_dom.js'
import { CONTEXT_CHARS, plainLinks } from './_page-links.js'
import { firstHeading, markdownLinkMatches } from './_text-scan.js'
import type { PageLink, ReadablePage } from './page.js'

/** Plain text made safe to show as markdown: the characters markdown or HTML would read as syntax, escaped. */
export function escapeMarkdown(text: string): string {
  return text.replace(/([\\`*_[\]#<>])/g, '\\$1')
}

/** A page from a JSON body: pretty-printed in a fenced block, links from string values. */
export function jsonPage(text: string, url: string, finalUrl: string): ReadablePage {
  let pretty = text.trim()
  let title: string | null = null
  try {
    const value: unknown = JSON.parse(text)
    pretty = JSON.stringify(value, null, 2)
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      const record = value as Record<string, unknown>
      const candidate = record.title ?? record.name
      if (typeof candidate === 'string') title = orNull(candidate)
    }
  } catch {
    // Served as JSON but is not: show it verbatim.
  }
  return {
    url,
    finalUrl,
    title,
    byline: null,
    siteName: null,
    lang: null,
    publishedAt: null,
    excerpt: null,
    markdown: `\`\`\`json\n${pretty}\n\`\`\``,
    text: pretty,
    links: plainLinks(text, finalUrl),
    readerable: false,
  }
}

/** A page from a text/plain or text/markdown body: the text as is, title from the first heading or line. */
export function textPage(text: string, url: string, finalUrl: string, markdown: boolean): ReadablePage {
  const normalized = text.replace(/\r\n?/g, '\n').trim()
  const heading = markdown ? firstHeading(normalized) : undefined
  const firstLine = normalized.split('\n').find((line) => line.trim() !== '')
  const mdLinks: PageLink[] = []
  if (markdown) {
    for (const match of markdownLinkMatches(normalized)) {
      const absolute = resolveUrl(match.target, finalUrl)
      if (!absolute || !/^https?:/.test(absolute)) continue
      const at = match.index
      mdLinks.push({
        url: absolute,
        text: collapse(match.label),
        context: collapse(normalized.slice(Math.max(0, at - CONTEXT_CHARS), at + match.length + CONTEXT_CHARS)),
      })
    }
  }
  const links = new Map<string, PageLink>()
  for (const link of [...mdLinks, ...plainLinks(normalized, finalUrl)]) {
    const key = link.url.replace(/#.*$/, '')
    if (!links.has(key)) links.set(key, link)
  }
  return {
    url,
    finalUrl,
    title: orNull(heading ?? firstLine?.slice(0, 200)),
    byline: null,
    siteName: null,
    lang: null,
    publishedAt: null,
    excerpt: orNull(
      normalized
        .split(/\n\s*\n/)
        .find((para) => !para.startsWith('#'))
        ?.slice(0, 300),
    ),
    markdown: markdown ? normalized : escapeMarkdown(normalized),
    text: normalized,
    links: [...links.values()],
    readerable: false,
  }
}

/** A page from an RSS or Atom feed or other XML: title, items as a markdown list, item links. */
export function xmlPage(text: string, url: string, finalUrl: string): ReadablePage {
  const doc = new DOMParser().parseFromString(text, 'text/xml') as unknown as Doc
  const pick = (el: El | null, name: string) => {
    if (!el) return undefined
    for (const child of Array.from(el.childNodes))
      if (child.nodeType === 1 && child.nodeName.toLowerCase() === name) return child
    return undefined
  }
  const channel = doc.querySelector('channel') ?? doc.querySelector('feed')
  const title = orNull(pick(channel, 'title')?.textContent ?? doc.querySelector('title')?.textContent)
  const items = Array.from(doc.querySelectorAll('item, entry'))
  const links: PageLink[] = []
  const lines: string[] = title ? [`# ${title}`, ''] : []
  for (const item of items) {
    const itemTitle = collapse(pick(item, 'title')?.textContent)
    const linkEl = pick(item, 'link')
    const href = resolveUrl(linkEl?.getAttribute('href') || collapse(linkEl?.textContent) || null, finalUrl)
    const summary = collapse(pick(item, 'description')?.textContent ?? pick(item, 'summary')?.textContent).slice(0, 300)
    if (href && /^https?:/.test(href)) {
      links.push({
        url: href,
        text: itemTitle,
        context: collapse(`${itemTitle} ${summary}`).slice(0, CONTEXT_CHARS * 2),
      })
      lines.push(`- [${itemTitle || href}](${href})${summary ? ` — ${summary}` : ''}`)
    } else if (itemTitle) {
      lines.push(`- ${itemTitle}`)
    }
  }
  const plain = blockText(doc.documentElement ?? doc)
  return {
    url,
    finalUrl,
    title,
    byline: null,
    siteName: null,
    lang: orNull(doc.documentElement?.getAttribute('xml:lang')) ?? orNull(doc.querySelector('language')?.textContent),
    publishedAt: null,
    excerpt: null,
    markdown: items.length > 0 ? lines.join('\n') : plain,
    text: plain,
    links: links.length > 0 ? links : plainLinks(plain, finalUrl),
    readerable: false,
  }
}
