// Readability on a linkedom document, without the copy of the page it keeps for a second attempt. Its
// `_grabArticle` starts by serializing the whole body (`page.innerHTML`: ~6 ms of a typical 140 KB page, a tenth of
// its extraction) so that it can restore the body and try again with looser rules, which it does only when the
// article it found has under 500 characters. Here the first attempt runs with the body's `innerHTML` answering a
// marker instead; should Readability restore the body with it, that attempt stops and Readability runs again, as
// it would have, on a fresh parse of the source. Every page reads the same as before; most skip the copy.
import { Readability } from '@mozilla/readability'
import { type Doc, type El, parseDocument } from './_dom.js'

export type Article = ReturnType<Readability<El>['parse']>

/** What the body's `innerHTML` answers during the first attempt; setting it back means a second attempt. */
const NOT_KEPT = '<!-- page-fetch: the body is not kept; see _readability.ts -->'

/** Thrown (from the body's `innerHTML` setter) to stop a first attempt that needs a second. */
class SecondAttempt extends Error {}

/** Readability's article of `document`, parsed from `html` (null when it finds none or fails on the markup). */
export function readArticle(document: Doc, html: string): Article {
  try {
    return withoutBodyCopy(document, () => parseArticle(document))
  } catch (error) {
    if (!(error instanceof SecondAttempt)) return null
  }
  // The first attempt changed the document: start again from the source, the body's copy kept this time.
  try {
    return parseArticle(parseDocument(html))
  } catch {
    return null
  }
}

function parseArticle(document: Doc): Article {
  const reader = new Readability<El>(document as never, {
    serializer: (el) => el as unknown as El,
    keepClasses: true,
  })
  // NOTE(linkedom): Readability finds elements by tag with `querySelectorAll("p")` (or "ul,ol"), 28 call sites; in
  // linkedom each call compiles a CSS selector and matches it on every element (a tenth of a large article's time).
  Object.assign(reader, {
    _getAllNodesWithTag: elementsByTag,
    _isValidByline: isValidByline,
    _isElementWithoutContent: isElementWithoutContent,
    _isProbablyVisible: isProbablyVisible,
  })
  return reader.parse()
}

const BYLINE = /byline|author|dateline|writtenby|p-author/i

// NOTE(readability): `_grabArticle` asks `_isValidByline` of every node it walks until a byline is found, and
// `_isElementWithoutContent` of every div, section, header and heading. Readability 0.6.0 reads the node's whole
// `textContent` first in both, a walk of everything under the node, so a page's nesting depth multiplies its size
// (with `_isProbablyVisible` below, a sixth to a fifth of extraction over the 311 corpus pages). These answer the
// same, reading text only where it decides the answer.

/** Readability's `_isValidByline`: the text is read only of a node whose attributes or names say "author". */
function isValidByline(node: El, matchString: string): boolean {
  const rel = node.getAttribute('rel')
  const itemprop = node.getAttribute('itemprop')
  if (!(rel === 'author' || itemprop?.includes('author') || BYLINE.test(matchString))) return false
  const length = (node.textContent ?? '').trim().length
  return length > 0 && length < 100
}

/** Readability's `_isElementWithoutContent`: stops at the first text that is not all white space. */
function isElementWithoutContent(node: El & TextWalkNode & { children: ArrayLike<El> }): boolean {
  if (node.nodeType !== 1 || hasNonBlankText(node)) return false
  const children = node.children.length
  return children === 0 || children === node.getElementsByTagName('br').length + node.getElementsByTagName('hr').length
}

/**
 * Readability's `_isProbablyVisible`, reading `style` only of an element with a `style` attribute. linkedom makes a
 * `CSSStyleDeclaration` (a Map behind a Proxy, kept on the element) the first time `style` is read, for every element
 * `_grabArticle` walks, and one without the attribute has no `display` or `visibility` to read.
 */
function isProbablyVisible(node: El & { hasAttribute(name: string): boolean; className: string }): boolean {
  const style = node.hasAttribute('style') ? (node as { style?: CssStyle }).style : undefined
  return (
    style?.display !== 'none' &&
    style?.visibility !== 'hidden' &&
    !node.hasAttribute('hidden') &&
    (!node.hasAttribute('aria-hidden') ||
      node.getAttribute('aria-hidden') !== 'true' ||
      Boolean(
        node.className && typeof node.className.includes === 'function' && node.className.includes('fallback-image'),
      ))
  )
}

interface CssStyle {
  display?: string
  visibility?: string
}

interface TextWalkNode {
  nodeType: number
  textContent: string | null
  firstChild: TextWalkNode | null
  nextSibling: TextWalkNode | null
  parentNode: TextWalkNode | null
}

/**
 * Whether `textContent.trim()` of `root` would be non-empty: some text (or CDATA) node under it holds a character
 * that is not white space (`\S` and `trim` agree on what white space is). A walk without a stack, like `elementsByTag`.
 */
export function hasNonBlankText(root: TextWalkNode): boolean {
  let node = root.firstChild
  while (node) {
    if ((node.nodeType === 3 || node.nodeType === 4) && /\S/.test(node.textContent ?? '')) return true
    node = node.firstChild ?? nextNodeOutside(node, root)
  }
  return false
}

function nextNodeOutside(node: TextWalkNode, root: TextWalkNode): TextWalkNode | null {
  for (let at: TextWalkNode | null = node; at && at !== root; at = at.parentNode)
    if (at.nextSibling) return at.nextSibling
  return null
}

interface TreeElement {
  localName: string
  firstElementChild: TreeElement | null
  nextElementSibling: TreeElement | null
  parentElement: TreeElement | null
}

/**
 * The elements under `root` named one of `tagNames`, in document order, the contents of `<template>` left out:
 * what `root.querySelectorAll(tagNames.join(","))` returns, found by a walk over elements with no selector. The walk
 * keeps no stack, so a document nested deeper than the default depth bound (a caller may raise it) cannot
 * overflow one.
 */
export function elementsByTag(root: TreeElement, tagNames: readonly string[]): TreeElement[] {
  const wanted = new Set(tagNames.map((name) => name.toLowerCase()))
  const found: TreeElement[] = []
  let el = root.firstElementChild
  while (el) {
    const name = el.localName.toLowerCase()
    if (wanted.has(name)) found.push(el)
    el = (name !== 'template' && el.firstElementChild) || nextOutside(el, root)
  }
  return found
}

/** The element after `el` and everything under it, within `root`. */
function nextOutside(el: TreeElement, root: TreeElement): TreeElement | null {
  for (let at: TreeElement | null = el; at && at !== root; at = at.parentElement)
    if (at.nextElementSibling) return at.nextElementSibling
  return null
}

/** Runs `read` with `document.body.innerHTML` read as `NOT_KEPT` and set back to it as `SecondAttempt`. */
function withoutBodyCopy(document: Doc, read: () => Article): Article {
  const body = document.body
  if (!body) return read()
  Object.defineProperty(body, 'innerHTML', {
    configurable: true,
    get: () => NOT_KEPT,
    set: (value: string) => {
      if (value === NOT_KEPT) throw new SecondAttempt('Readability needs a second attempt')
      // Any other value: the element's own setter, as if this property were not here.
      Reflect.deleteProperty(body, 'innerHTML')
      body.innerHTML = value
    },
  })
  try {
    return read()
  } finally {
    Reflect.deleteProperty(body, 'innerHTML')
  }
}
