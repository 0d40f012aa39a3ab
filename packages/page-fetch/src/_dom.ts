import { joinParagraphs } from '@search-layer/core/text'
import { parseHTML } from 'linkedom'

// The linkedom DOM as page-fetch reads it, structurally: its types are not the lib.dom ones and few members are used.
export interface El {
  nodeType: number
  nodeName: string
  tagName: string
  textContent: string | null
  parentNode: El | null
  childNodes: ArrayLike<El>
  getAttribute(name: string): string | null
  setAttribute(name: string, value: string): void
  querySelector(selector: string): El | null
  querySelectorAll(selector: string): ArrayLike<El>
  getElementsByTagName(name: string): ArrayLike<El>
  remove(): void
  innerHTML: string
}
export interface Doc extends El {
  documentElement: El
  body: El | null
  head: El | null
  title: string
}

export const BLOCK_TAGS = new Set([
  'ADDRESS',
  'ARTICLE',
  'ASIDE',
  'BLOCKQUOTE',
  'BODY',
  'DD',
  'DETAILS',
  'DIV',
  'DL',
  'DT',
  'FIELDSET',
  'FIGCAPTION',
  'FIGURE',
  'FOOTER',
  'FORM',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'HEADER',
  'HR',
  'LI',
  'MAIN',
  'NAV',
  'OL',
  'P',
  'PRE',
  'SECTION',
  'SUMMARY',
  'TABLE',
  'TBODY',
  'TD',
  'TFOOT',
  'TH',
  'THEAD',
  'TR',
  'UL',
])
export const NOISE_SELECTOR =
  'script, style, noscript, template, iframe, object, embed, svg, canvas, nav, form, button, input, select, textarea, dialog'

export function collapse(text: string | null | undefined): string {
  return (text ?? '').replace(/\s+/g, ' ').trim()
}

export function orNull(text: string | null | undefined): string | null {
  const value = collapse(text)
  return value === '' ? null : value
}

/** Block-aware text: paragraphs separated by blank lines, inline whitespace collapsed (textContent glues blocks together). */
export function blockText(root: El): string {
  const parts: string[] = []
  const walk = (node: El) => {
    if (node.nodeType === 3) {
      parts.push(node.textContent ?? '')
      return
    }
    if (node.nodeType !== 1 && node.nodeType !== 11 && node.nodeType !== 9) return
    const tag = node.tagName ?? ''
    if (tag === 'SCRIPT' || tag === 'STYLE' || tag === 'NOSCRIPT' || tag === 'TEMPLATE') return
    if (tag === 'BR') {
      parts.push('\n')
      return
    }
    const block = BLOCK_TAGS.has(tag)
    if (block) parts.push('\n\n')
    for (const child of Array.from(node.childNodes)) walk(child)
    if (block) parts.push('\n\n')
  }
  walk(root)
  return joinParagraphs(parts)
}

export function resolveUrl(href: string | null, base: string): string | undefined {
  if (!href) return undefined
  const trimmed = href.trim()
  if (trimmed === '') return undefined
  try {
    return new URL(trimmed, base).href
  } catch {
    return undefined
  }
}

export function baseFor(doc: Doc, pageUrl: string): string {
  // A tag-name walk, not a CSS query: linkedom compiles and matches a selector on every element.
  const baseHref = Array.from(doc.getElementsByTagName('base')).find((el) => el.getAttribute('href') !== null)
  return resolveUrl(baseHref?.getAttribute('href') ?? null, pageUrl) ?? pageUrl
}

/** Rewrites link and media URLs under `root` to absolute ones (linkedom has no baseURI to resolve them against). */
export function absolutize(root: El, base: string): void {
  for (const [selector, attr] of [
    ['a[href]', 'href'],
    ['img[src]', 'src'],
    ['source[src]', 'src'],
    ['video[poster]', 'poster'],
  ] as const) {
    for (const el of Array.from(root.querySelectorAll(selector))) {
      const value = el.getAttribute(attr)
      // Leave in-page anchors and non-navigations alone; they are dropped from links later.
      if (!value || value.startsWith('#') || /^\s*javascript:/i.test(value)) continue
      const absolute = resolveUrl(value, base)
      if (absolute) el.setAttribute(attr, absolute)
    }
  }
}

export function parseDocument(html: string): Doc {
  // linkedom builds no <html>/<body> for fragments; wrap them so the DOM has the shape Readability expects.
  const wrapped = /<html[\s>]/i.test(html) ? html : `<!DOCTYPE html><html><head></head><body>${html}</body></html>`
  return (parseHTML(wrapped) as unknown as { document: Doc }).document
}
