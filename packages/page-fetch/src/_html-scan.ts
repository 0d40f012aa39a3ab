/**
 * A single linear pass over HTML without building a DOM: how deep elements nest, how many there are, how many
 * links, and (when asked) the plain text with its links. Readable extraction uses the figures to refuse pages that
 * would make linkedom and Readability slow or huge, and the text as what such a page degrades to.
 *
 * Contract: time and memory are linear in the input, whatever it is (unclosed tags and quotes, stray `<`, nesting
 * a million deep). The nesting follows the HTML parser closely enough for bounds, not exactly: void elements and
 * `/>` do not nest, a close tag closes up to its open element, and the common implied closes (`<p>`, `<li>`,
 * `<td>`, `<tr>`, `<dt>`/`<dd>`, `<option>`) are applied.
 */

import { decodeEntities, joinParagraphs } from '@search-layer/core/text'

/** How big and deep a page's markup is. */
export interface HtmlShape {
  /** Deepest element nesting. */
  maxDepth: number
  /** Elements opened. */
  elements: number
  /** `<a href>` elements. */
  links: number
  /**
   * Every element's nesting depth, summed: how many (element, ancestor) pairs the DOM has, which is what passes
   * visiting each element's subtree cost (Readability's conditional cleaning: ~250 nested `<div>`s repeated 150
   * times is a small page under the depth and element bounds and a minute of work).
   */
  totalDepth: number
  /** Attributes written in start tags (about: `a = b` counts `b` too); DOM and Readability time grows with them. */
  attributes: number
}

/** A link found by the scan. */
interface ScannedLink {
  href: string
  text: string
}

/** What `scanHtml` returns with `collectText`: the shape, the title, the block-separated text and the links. */
export interface ScannedText extends HtmlShape {
  title: string | null
  text: string
  /** The first 1,000 `<a href>` with their text, hrefs as written. */
  anchors: ScannedLink[]
}

const VOID_TAGS = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'keygen',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
])
// Elements whose content is not markup: the scan jumps to their close tag.
const RAW_TEXT_TAGS = new Set([
  'script',
  'style',
  'textarea',
  'title',
  'xmp',
  'iframe',
  'noembed',
  'noframes',
  'plaintext',
])
const SILENT_TAGS = new Set(['script', 'style', 'noscript', 'template', 'iframe', 'noembed', 'noframes', 'head'])
const BLOCK_TAGS = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'body',
  'dd',
  'details',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'li',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'tr',
  'ul',
])
const P_CLOSERS = new Set([...BLOCK_TAGS].filter((tag) => tag !== 'body' && tag !== 'td' && tag !== 'th'))
// Opening the key closes an open element of these names when it is the current one (HTML's implied end tags).
const IMPLIED_CLOSE: Record<string, ReadonlySet<string>> = {
  li: new Set(['li', 'p']),
  dt: new Set(['dt', 'dd', 'p']),
  dd: new Set(['dt', 'dd', 'p']),
  tr: new Set(['tr', 'td', 'th']),
  td: new Set(['td', 'th']),
  th: new Set(['td', 'th']),
  option: new Set(['option']),
  optgroup: new Set(['option', 'optgroup']),
}
const ALWAYS_P = new Set(['p'])
const MAX_SCANNED_LINKS = 1000
function isNameStart(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122)
}

function isTagSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 12 || code === 13
}

/**
 * Index just past the `>` ending a tag whose name ends at `from`, skipping quoted attribute values; -1 if none.
 * Adds the attributes it passes (names after blanks) to `counts.attributes`.
 */
function tagEnd(html: string, from: number, counts: { attributes: number }): number {
  let i = from
  while (i < html.length) {
    const ch = html.charCodeAt(i)
    if (ch === 62) return i + 1 // >
    if (ch !== 47 && ch !== 61 && !isTagSpace(ch) && isTagSpace(html.charCodeAt(i - 1))) counts.attributes++
    if (ch === 34 || ch === 39) {
      // Quotes only count inside an attribute value (after `=`), as the tokenizer reads them.
      let back = i - 1
      while (back > from && /\s/.test(html[back] ?? '')) back--
      if (html[back] === '=') {
        const close = html.indexOf(html[i] as string, i + 1)
        if (close < 0) return -1
        i = close + 1
        continue
      }
    }
    i++
  }
  return -1
}

/** Whether an open element's text counts toward `isProbablyReaderable` (its nodes are `p`, `pre`, `article`). */
function readerableText(open: ReadonlyMap<string, number>): boolean {
  return (open.get('p') ?? 0) > 0 || (open.get('pre') ?? 0) > 0 || (open.get('article') ?? 0) > 0
}

/** Whether the content of raw-text element `name` (start tag attributes `attributes`) is read by nothing. */
function isDeadText(name: string, attributes: string): boolean {
  return name === 'style' || (name === 'script' && !JSON_LD_TYPE.test(attributes))
}

function hrefOf(tag: string): string | null {
  const match = /\shref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i.exec(tag)
  return match ? decodeEntities(match[1] ?? match[2] ?? match[3] ?? '') : null
}

/** The nesting depth, element and link counts of an HTML document, in one linear pass. */
export function measureHtml(html: string): HtmlShape {
  const { maxDepth, elements, links, totalDepth, attributes } = scanHtml(html, false)
  return { maxDepth, elements, links, totalDepth, attributes }
}

/**
 * `measureHtml`, plus the spans of text no reader keeps, as start and end offsets in pairs (for `withoutDeadText`):
 * the content of `<script>` (JSON-LD aside) and `<style>` elements outside `<p>`, `<pre>` and `<article>` (whose
 * text, scripts included, `isProbablyReaderable` weighs).
 */
export function measureHtmlForReading(html: string): { shape: HtmlShape; deadText: number[] } {
  const deadText: number[] = []
  const { maxDepth, elements, links, totalDepth, attributes } = scanHtml(html, false, deadText)
  return { shape: { maxDepth, elements, links, totalDepth, attributes }, deadText }
}

/**
 * `html` without the spans `measureHtml` found in `deadText` (their tags kept, so the DOM has the same elements):
 * script and style text is most of a typical page's bytes, and a DOM parser would build it only for Readability
 * to remove it first thing.
 */
export function withoutDeadText(html: string, deadText: readonly number[]): string {
  if (deadText.length === 0) return html
  const kept: string[] = []
  let from = 0
  for (let k = 0; k < deadText.length; k += 2) {
    kept.push(html.slice(from, deadText[k]))
    from = deadText[k + 1] as number
  }
  kept.push(html.slice(from))
  return kept.join('')
}

const JSON_LD_TYPE = /\stype\s*=\s*["']?application\/ld\+json/i

/** The shape plus the page's title, its visible text (script, style and head left out) and its first 1,000 links. */
export function htmlToText(html: string): ScannedText {
  return scanHtml(html, true)
}

function scanHtml(html: string, collectText: boolean, deadText?: number[]): ScannedText {
  const stack: string[] = []
  const open = new Map<string, number>()
  const parts: string[] = []
  const anchors: ScannedLink[] = []
  let title: string | null = null
  let maxDepth = 0
  let elements = 0
  let totalDepth = 0
  const counts = { attributes: 0 }
  let linkCount = 0
  let silent = 0
  let anchor: { href: string; text: string[] } | null = null

  const push = (name: string) => {
    stack.push(name)
    open.set(name, (open.get(name) ?? 0) + 1)
    if (SILENT_TAGS.has(name)) silent++
    if (stack.length > maxDepth) maxDepth = stack.length
  }
  const pop = () => {
    const name = stack.pop() as string
    open.set(name, (open.get(name) ?? 1) - 1)
    if (SILENT_TAGS.has(name)) silent--
    if (name === 'a') closeAnchor()
    if (collectText && BLOCK_TAGS.has(name)) parts.push('\n\n')
  }
  const closeAnchor = () => {
    if (anchor && anchors.length < MAX_SCANNED_LINKS)
      anchors.push({ href: anchor.href, text: anchor.text.join('').replace(/\s+/g, ' ').trim() })
    anchor = null
  }
  const addText = (raw: string) => {
    if (!collectText || silent > 0 || raw === '') return
    const text = decodeEntities(raw)
    parts.push(text)
    anchor?.text.push(text)
  }

  let i = 0
  while (i < html.length) {
    const lt = html.indexOf('<', i)
    if (lt < 0) {
      addText(html.slice(i))
      break
    }
    if (lt > i) addText(html.slice(i, lt))
    const next = html.charCodeAt(lt + 1)
    if (html.startsWith('<!--', lt)) {
      const end = html.indexOf('-->', lt + 4)
      i = end < 0 ? html.length : end + 3
      continue
    }
    if (next === 33 || next === 63) {
      // <!DOCTYPE …>, <![CDATA[…]]>, <?xml …?>
      const end = html.indexOf('>', lt + 2)
      i = end < 0 ? html.length : end + 1
      continue
    }
    const closing = next === 47 // </
    const nameAt = closing ? lt + 2 : lt + 1
    if (!isNameStart(html.charCodeAt(nameAt))) {
      addText('<')
      i = lt + 1
      continue
    }
    let nameEnd = nameAt
    while (nameEnd < html.length && !/[\s/>]/.test(html[nameEnd] as string)) nameEnd++
    const name = html.slice(nameAt, nameEnd).toLowerCase()
    const end = tagEnd(html, nameEnd, counts)
    if (end < 0) break // an unterminated tag runs to the end of the document: nothing visible follows
    i = end

    if (closing) {
      if ((open.get(name) ?? 0) > 0) {
        while (stack.length > 0 && stack[stack.length - 1] !== name) pop()
        pop()
      } else if (collectText && name === 'br') parts.push('\n')
      continue
    }

    elements++
    if (name === 'a' && /\shref\s*=/i.test(html.slice(nameEnd, end))) linkCount++
    if (collectText && name === 'br') parts.push('\n')
    const implied = IMPLIED_CLOSE[name] ?? (P_CLOSERS.has(name) ? ALWAYS_P : undefined)
    while (implied && stack.length > 0 && implied.has(stack[stack.length - 1] as string)) pop()
    totalDepth += stack.length + 1
    if (VOID_TAGS.has(name) || html.charCodeAt(end - 2) === 47) continue // <br>, <x/>

    if (RAW_TEXT_TAGS.has(name)) {
      const closer = new RegExp(`</${name}[\\s/>]`, 'gi')
      closer.lastIndex = end
      const found = closer.exec(html)
      const contentEnd = found ? found.index : html.length
      if (deadText && found && contentEnd > end && !readerableText(open) && isDeadText(name, html.slice(nameEnd, end)))
        deadText.push(end, contentEnd)
      if (name === 'title' && title === null)
        title = decodeEntities(html.slice(end, contentEnd)).replace(/\s+/g, ' ').trim() || null
      else if (name === 'textarea' || name === 'xmp' || name === 'plaintext') addText(html.slice(end, contentEnd))
      const closeEnd = found ? html.indexOf('>', contentEnd) : -1
      i = closeEnd < 0 ? html.length : closeEnd + 1
      if (stack.length + 1 > maxDepth) maxDepth = stack.length + 1
      continue
    }

    if (name === 'a') {
      if (anchor) closeAnchor()
      const href = collectText ? hrefOf(html.slice(nameEnd, end)) : null
      if (href !== null) anchor = { href, text: [] }
    }
    if (collectText && BLOCK_TAGS.has(name)) parts.push('\n\n')
    push(name)
  }
  if (anchor) closeAnchor()
  return {
    maxDepth,
    elements,
    links: linkCount,
    totalDepth,
    attributes: counts.attributes,
    title,
    text: collectText ? joinParagraphs(parts) : '',
    anchors,
  }
}
