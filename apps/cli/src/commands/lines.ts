import { MAX_QUERY_CHARS } from '@search-layer/core'

const TRAILING_SPACE_CHARS = 1024

/** One line of stdin: a query, or the number of a line too long to be one (never held whole). */
export type StdinLine = { query: string } | { tooLong: number }

/**
 * Reads stdin line by line (one query per line), skipping blank lines. A line longer than `maxChars` is not kept:
 * its number is yielded once it ends, and what it held is dropped as it arrives, so a stream with no newline
 * (`< /dev/zero`) holds at most `maxChars` in memory, never the stream.
 */
export async function* stdinLines(stdin: NodeJS.ReadableStream, maxChars = MAX_QUERY_CHARS): AsyncGenerator<StdinLine> {
  let line = ''
  let overLong = false
  let number = 0
  const end = function* () {
    number++
    if (overLong) yield { tooLong: number }
    else if (line.trim()) yield { query: line.trim() }
    line = ''
    overLong = false
  }
  stdin.setEncoding?.('utf8')
  for await (const chunk of stdin as AsyncIterable<string | Buffer>) {
    const text = typeof chunk === 'string' ? chunk : chunk.toString('utf8')
    let from = 0
    for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', from)) {
      take(text.slice(from, at))
      yield* end()
      from = at + 1
    }
    take(text.slice(from))
  }
  if (line || overLong) yield* end()

  // Leading white space is dropped as it comes, and trailing white space may pass the bound by a little only: a line
  // of nothing but spaces is held no more than any other.
  function take(part: string): void {
    if (overLong) return
    line = (line + part).trimStart()
    if (line.trimEnd().length > maxChars || line.length > maxChars + TRAILING_SPACE_CHARS) {
      overLong = true
      line = ''
    }
  }
}
