import { BLOCK_TAGS, type El, collapse, resolveUrl } from './_dom.js'
import { trimTrailingPunctuation } from './_text-scan.js'
import type { PageLink } from './page.js'

const CONTEXT_BLOCK_TAGS = new Set([
  'P',
  'LI',
  'TD',
  'TH',
  'DD',
  'DT',
  'BLOCKQUOTE',
  'FIGCAPTION',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'PRE',
  'CAPTION',
  'SUMMARY',
])
/** Characters of context kept on each side of a link. */
export const CONTEXT_CHARS = 120

function contextAround(anchor: El, anchorText: string, blockTexts: Map<El, string>): string {
  let block: El | null = anchor.parentNode
  while (block && block.nodeType === 1 && !CONTEXT_BLOCK_TAGS.has(block.tagName) && !BLOCK_TAGS.has(block.tagName))
    block = block.parentNode
  let blockContent: string
  if (block && block.nodeType === 1) {
    // Many links share one block (a list of 2,000 links in one <div>): its text is collapsed once, not per link.
    blockContent = blockTexts.get(block) ?? collapse(block.textContent)
    blockTexts.set(block, blockContent)
  } else blockContent = collapse(anchor.textContent)
  if (anchorText === '') return blockContent.slice(0, CONTEXT_CHARS * 2)
  const at = blockContent.indexOf(anchorText)
  if (at < 0) return anchorText
  let start = Math.max(0, at - CONTEXT_CHARS)
  let end = Math.min(blockContent.length, at + anchorText.length + CONTEXT_CHARS)
  // Cut on word boundaries so the context does not start or end mid-word.
  if (start > 0) {
    const space = blockContent.indexOf(' ', start)
    if (space >= 0 && space < at) start = space + 1
  }
  if (end < blockContent.length) {
    const space = blockContent.lastIndexOf(' ', end)
    if (space > at + anchorText.length) end = space
  }
  return `${start > 0 ? '…' : ''}${blockContent.slice(start, end)}${end < blockContent.length ? '…' : ''}`
}

export function collectLinks(root: El, pageUrl: string): PageLink[] {
  const byKey = new Map<string, PageLink>()
  const blockTexts = new Map<El, string>()
  const page = new URL(pageUrl)
  page.hash = ''
  for (const anchor of Array.from(root.querySelectorAll('a[href]'))) {
    const href = anchor.getAttribute('href')
    const absolute = resolveUrl(href, pageUrl)
    if (!absolute) continue
    const parsed = new URL(absolute)
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') continue
    parsed.hash = ''
    // In-page anchors (footnotes, table of contents) are not references to other documents.
    if (parsed.href === page.href) continue
    const text = collapse(anchor.textContent) || collapse(anchor.querySelector('img[alt]')?.getAttribute('alt'))
    const existing = byKey.get(parsed.href)
    if (existing && existing.text !== '') continue
    byKey.set(parsed.href, { url: existing?.url ?? absolute, text, context: contextAround(anchor, text, blockTexts) })
  }
  return [...byKey.values()]
}

const PLAIN_URL = /\bhttps?:\/\/[^\s<>"'`]+/g

/** Bare URLs in plain text, trailing punctuation excluded, with ±context. */
export function plainLinks(text: string, _base: string): PageLink[] {
  const seen = new Map<string, PageLink>()
  for (const match of text.matchAll(PLAIN_URL)) {
    const raw = trimTrailingPunctuation(match[0])
    let url: string
    try {
      url = new URL(raw).href
    } catch {
      continue
    }
    const key = url.replace(/#.*$/, '')
    if (seen.has(key)) continue
    const at = match.index ?? 0
    const context = collapse(text.slice(Math.max(0, at - CONTEXT_CHARS), at + raw.length + CONTEXT_CHARS))
    seen.set(key, { url, text: raw, context })
  }
  return [...seen.values()]
}
