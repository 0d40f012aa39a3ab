import type { Passage } from '@search-layer/passages'
import type { Evidence, ReadReport } from './schema.js'

// Page text is untrusted: in the Evidence block it is quoted, every line inside the block quote, with whatever could
// make markup of it escaped (links, images, HTML, code spans and fences, headings), so a page cannot forge a
// heading, a link, a `[p2]` reference or the end of the block.

const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f\u0085\u200b-\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/g
const INLINE = /[\\`[\]<>~]/g

/** Text of one line with everything that could be markup escaped. */
function inert(line: string): string {
  return line
    .replace(CONTROL, ' ')
    .replace(INLINE, '\\$&')
    .replace(/^(\s*)([#=+-]|\d+[.)])/, '$1\\$2')
}

/** One line of untrusted text (a title, a heading, a message), cut to `max` characters. */
function inertLine(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  const cut = flat.length > max ? `${flat.slice(0, max - 1)}…` : flat
  return inert(cut)
}

/** A URL as a link target: no space, parenthesis or angle bracket can end it. */
function linkTarget(url: string): string {
  return url
    .replace(CONTROL, '')
    .replace(/[\s()<>]/g, (ch) => encodeURIComponent(ch).replace('(', '%28').replace(')', '%29'))
}

function quote(text: string): string {
  return text
    .split(/\r\n|\r|\n/)
    .map((line) => (line.trim() ? `> ${inert(line)}` : '>'))
    .join('\n')
}

function passageBlock(p: Passage): string {
  const heading = p.heading ? ` › ${inertLine(p.heading)}` : ''
  const also = (p.sources ?? []).slice(1, 4).map((s) => `[${inertLine(s.title, 80) || 'page'}](${linkTarget(s.url)})`)
  const head = `**[${p.id}]** [${inertLine(p.title) || 'page'}](${linkTarget(p.url)}) (result ${p.resultRank})${heading}`
  return `${head}${also.length > 0 ? ` · also on ${also.join(', ')}` : ''}\n${quote(p.text)}`
}

function notReadLine(r: ReadReport): string {
  const message = r.message ? ` — ${inertLine(r.message)}` : ''
  return `- ${r.status} (${r.kind}): <${linkTarget(r.url)}>${message}`
}

/**
 * The Evidence block of a search's markdown: each passage quoted under its `[pN]` reference, the title and URL of
 * its page and its heading; then the pages not read, one line each. Empty when nothing was read.
 */
export function evidenceToMarkdown(evidence: Evidence): string {
  if (evidence.reads.length === 0) return ''
  const blocks = ['## Evidence']
  if (evidence.passages.length > 0) blocks.push(...evidence.passages.map(passageBlock))
  else blocks.push('_No passage of the pages read matches the query._')
  const notRead = evidence.reads.filter((r) => r.status !== 'ok')
  if (notRead.length > 0)
    blocks.push(`**Not read** (${notRead.length} of ${evidence.reads.length})\n${notRead.map(notReadLine).join('\n')}`)
  return `${blocks.join('\n\n')}\n`
}
