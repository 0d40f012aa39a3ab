import type { SearchResponse } from '@search-layer/engine'
import { oneLine } from './_text.js'

/** Most lines listing pages not read: the rest are counted. */
const MAX_NOT_READ_LINES = 10

/** The evidence of a search that read its top results, split by who wrote it. */
export interface Evidence {
  /** Third-party text for inside the result's untrusted-content frame: passages, then the pages not read. */
  framed: string
  /** Our own words for after the frame: how many passages were left out, how many pages were not read. */
  after: string
  /** Whether any passage is shown (so the model is told how to cite them). */
  cited: boolean
}

/**
 * The evidence of a search that read its top results, for a model: the passages (titles, headings and text are the
 * pages' own), whole passages only, as many as fit `maxChars`, and the pages not read (their URLs and error messages
 * are third-party text too) go inside the frame; the counts go after it. Null when the search did not read.
 */
export function evidenceText(response: SearchResponse, maxChars: number): Evidence | null {
  const reads = response.reads
  if (!reads || reads.length === 0) return null
  const notRead = reads.filter((r) => r.status !== 'ok')
  const notReadLines = [
    ...notRead
      .slice(0, MAX_NOT_READ_LINES)
      .map(
        (r) => `- ${oneLine(r.url, 200)}: ${r.status} (${r.kind})${r.message ? `, ${oneLine(r.message, 160)}` : ''}`,
      ),
    ...(notRead.length > MAX_NOT_READ_LINES ? [`- … and ${notRead.length - MAX_NOT_READ_LINES} more`] : []),
  ]
  const notReadBlock = notReadLines.length > 0 ? `\n\n## Pages not read\n${notReadLines.join('\n')}` : ''
  const passages = response.passages ?? []
  // Room for the heading and the count lines after the frame.
  const room = maxChars - notReadBlock.length - 140
  const blocks: string[] = []
  let used = 0
  for (const p of passages) {
    const block = `[${p.id}] ${oneLine(p.title, 160)} — ${p.url}${p.heading ? ` › ${oneLine(p.heading, 160)}` : ''}\n${p.text.trim()}`
    if (used + block.length + 2 > room) continue
    blocks.push(block)
    used += block.length + 2
  }
  const none = passages.length === 0 ? 'No passage of the pages read matches the query.' : 'No passage fits here.'
  const counts = [
    blocks.length === 0 ? none : '',
    blocks.length > 0 && blocks.length < passages.length
      ? `(${passages.length - blocks.length} more passages in the data)`
      : '',
    notRead.length > 0 ? `Pages not read: ${notRead.length} of ${reads.length} (listed in the frame).` : '',
  ]
  const framedBlocks = blocks.length > 0 ? `## Evidence from the pages read\n\n${blocks.join('\n\n')}` : ''
  return {
    framed: `${framedBlocks}${framedBlocks ? notReadBlock : notReadBlock.trimStart()}`,
    after: counts.filter(Boolean).join('\n'),
    cited: blocks.length > 0,
  }
}
