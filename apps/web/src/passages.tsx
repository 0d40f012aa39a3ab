import type { SearchResponse } from '@search-layer/engine'
import { markWords } from './mark-words.js'

type Passage = NonNullable<SearchResponse['passages']>[number]

/** Text as text nodes, the query's words in `<mark>`. */
const marked = (text: string, query: string) =>
  markWords(text, query).map((piece, i) => (piece.marked ? <mark key={i}>{piece.text}</mark> : piece.text))

/**
 * The passages read from one result's page, under it: each quoted with its heading and the query's words marked.
 * Page text is rendered as text nodes (never HTML), so a page cannot add markup.
 */
export function ResultPassages({ passages, query }: { passages: readonly Passage[]; query: string }) {
  if (passages.length === 0) return null
  return (
    <ul class="passages" aria-label="Passages read from this page">
      {passages.map((p) => (
        <li key={p.id} class="passage" data-passage={p.id}>
          <span class="passage-id">[{p.id}]</span>
          {p.heading && <span class="passage-heading"> {marked(p.heading, query)}</span>}
          <blockquote cite={p.url}>{marked(p.text, query)}</blockquote>
        </li>
      ))}
    </ul>
  )
}
