import type { SearchResponse } from '@search-layer/engine'
import { oneLine } from './_text.js'
import { untrustedFrame } from './_untrusted.js'

/** Most lines listing pages not read: the rest are counted. */
const MAX_NOT_READ_LINES = 10

/**
 * The evidence of a search that read its top results, for a model: the passages (titles, headings and text are the
 * pages' own) inside one untrusted-content frame, whole passages only, as many as fit `maxChars`; then the pages
 * not read, one line each, outside it. Empty when the search did not read.
 */
export function evidenceText(response: SearchResponse, maxChars: number): string {
  const reads = response.reads
  if (!reads || reads.length === 0) return ''
  const notRead = reads.filter((r) => r.status !== 'ok')
  const notReadLines = [
    ...notRead
      .slice(0, MAX_NOT_READ_LINES)
      .map(
        (r) => `- ${oneLine(r.url, 200)}: ${r.status} (${r.kind})${r.message ? `, ${oneLine(r.message, 160)}` : ''}`,
      ),
    ...(notRead.length > MAX_NOT_READ_LINES ? [`- … and ${notRead.length - MAX_NOT_READ_LINES} more`] : []),
  ]
  const tail =
    notReadLines.length > 0
      ? `\nPages not read (${notRead.length} of ${reads.length}):\n${notReadLines.join('\n')}`
      : ''
  const passages = response.passages ?? []
  const intro = 'Evidence from the pages read; cite a passage as [p1], [p2]…'
  const frame = untrustedFrame('the pages read: their titles, headings and passages')
  // Room for the frame, the lines around it and the count of passages left out.
  const room = maxChars - intro.length - tail.length - frame.length - 60
  const blocks: string[] = []
  let used = 0
  for (const p of passages) {
    const block = `[${p.id}] ${oneLine(p.title, 160)} — ${p.url}${p.heading ? ` › ${oneLine(p.heading, 160)}` : ''}\n${p.text.trim()}`
    if (used + block.length + 2 > room) continue
    blocks.push(block)
    used += block.length + 2
  }
  if (blocks.length === 0) {
    const none = passages.length === 0 ? 'No passage of the pages read matches the query.' : 'No passage fits here.'
    return `${intro}\n${none}${tail}`.slice(0, Math.max(0, maxChars))
  }
  const shown =
    blocks.length < passages.length ? `\n(${passages.length - blocks.length} more passages in the data)` : ''
  return `${intro}\n${frame.open}${blocks.join('\n\n')}${frame.close}${shown}${tail}`
}
