import { type SearchResult, httpUrl, plainText } from '@search-layer/core'
import { markdownLinks, removeCitationMarkers, trimLineEnds, unlinkMarkdown } from './_markdown-scan.js'
import { textBeforeMarkers } from './_markers.js'
import type { Cited, GrokMapOptions } from './_types.js'
import { canonical, filterByDomain, usableTitle } from './_urls.js'

const MAX_SNIPPET_CHARS = 400

/** Removes inline citation markers such as ` [[1]](https://x.ai/news)` from answer text. */
export function stripCitationMarkers(text: string): string {
  return trimLineEnds(removeCitationMarkers(text)).trim()
}

function markdownToPlain(text: string): string {
  return plainText(
    unlinkMarkdown(
      stripCitationMarkers(text)
        // List markers start a bullet, they are not part of what it says.
        .replace(/^[ \t]*(?:[-*+]|\d{1,3}[.)])[ \t]+/gm, ''),
    ).replace(/[*_`#>]+/g, ' '),
  )
}

function isTerminator(text: string, i: number): boolean {
  const c = text[i]
  if (c === '\n' || c === '。' || c === '！' || c === '？') return true
  return (c === '.' || c === '!' || c === '?') && (i + 1 >= text.length || /\s/.test(text[i + 1]!))
}

// How far from a citation its sentence is looked for, each way. Every citation is looked up this way, and an
// answer without sentence ends would otherwise be read whole for each of them.
const SENTENCE_REACH = 2000

/** The sentence a citation at [start, end) supports: the one ending at the marker, continued past it if unfinished. */
export function sentenceAround(text: string, start: number, end: number): string {
  const s = Math.max(0, Math.min(start, text.length))
  const e = Math.max(s, Math.min(end, text.length))
  const floor = Math.max(0, s - SENTENCE_REACH)
  // Skip back over adjacent markers and spaces: "claim. [[1]](a) [[2]](b)".
  const before = textBeforeMarkers(text, s, floor)
  let p = before.length - 1
  if (p < 0) return ''
  let from = Math.max(0, p - SENTENCE_REACH)
  for (let i = isTerminator(text, p) ? p - 1 : p; i >= from; i--) {
    if (isTerminator(text, i)) {
      from = i + 1
      break
    }
  }
  let to = Math.min(text.length, e + SENTENCE_REACH)
  if (isTerminator(text, p)) to = p + 1
  else
    for (p = e; p < to; p++)
      if (isTerminator(text, p)) {
        to = p + 1
        break
      }
  const sentence = markdownToPlain(text.slice(from, s) + text.slice(e, to)).replace(/\s+([.,;:!?。！？])/g, '$1')
  return sentence.length > MAX_SNIPPET_CHARS ? `${sentence.slice(0, MAX_SNIPPET_CHARS - 1)}…` : sentence
}

// Without annotations, only markdown links whose URL xAI itself lists in `citations` are trusted.
export function markdownLinksVerified(text: string, citations: readonly unknown[]): Cited[] {
  const known = new Set(
    citations
      .map(httpUrl)
      .filter((u): u is string => u !== null)
      .map(canonical),
  )
  if (known.size === 0) return []
  const out: Cited[] = []
  for (const link of markdownLinks(text)) {
    const url = httpUrl(link.url)
    if (url && known.has(canonical(url)))
      out.push({ url, title: link.title, text, start: link.index, end: link.index + link.length })
  }
  return out
}

export function toResults(cited: readonly Cited[], options: GrokMapOptions): SearchResult[] {
  const seen = new Set<string>()
  const results: SearchResult[] = []
  for (const c of cited) {
    const key = canonical(c.url)
    if (seen.has(key)) continue
    seen.add(key)
    if (options.request && !filterByDomain(c.url, options.request)) continue
    results.push({
      title: usableTitle(c.title, c.url),
      url: c.url,
      snippet: citationSnippet(c),
      publishedAt: null,
      provider: 'grok',
      rank: results.length + 1,
    })
    if (options.request && results.length >= options.request.num) break
  }
  return results
}

function citationSnippet(c: Cited): string {
  const { text } = c
  const validIndexes =
    typeof c.start === 'number' &&
    typeof c.end === 'number' &&
    Number.isInteger(c.start) &&
    Number.isInteger(c.end) &&
    c.start >= 0 &&
    c.end > c.start &&
    c.end <= text.length
  // NOTE(grok): indexes should bracket the marker; when they do not (0/0 on some tools, or shifted offsets),
  // locate the URL in the text instead.
  if (validIndexes && text.slice(c.start!, c.end!).includes('](')) return sentenceAround(text, c.start!, c.end!)
  const at = text.indexOf(c.url)
  if (at >= 0) {
    // The marker's opener is looked for only as far back as it may be: a search back to the start of the text
    // for each citation would read a long answer once per citation.
    const near = Math.max(0, at - 319)
    const before = text.slice(near, at + 1)
    const double = before.lastIndexOf('[[')
    const open = double >= 0 ? double : before.lastIndexOf('[')
    const markerStart = open >= 0 ? near + open : at
    return sentenceAround(text, markerStart, at + c.url.length + 1)
  }
  return validIndexes ? sentenceAround(text, c.start!, c.end!) : ''
}
