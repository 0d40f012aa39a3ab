import type { Intent } from '@search-layer/core'
import { expandQuery } from '@search-layer/expand'
import { classifyIntent, strategyFor } from '@search-layer/intent'
import { parseIntFlag } from '../flags.js'
import { EXIT, UsageError } from '../io.js'
import { stdinLines } from './lines.js'
import type { ParsedCommandArgs } from '../args.js'
import type { CliIo } from '../io.js'

/** The implementation, loaded only when the command runs. */
export async function runExpand(args: ParsedCommandArgs, io: CliIo): Promise<number> {
  const query = args.positionals.join(' ').trim()
  const intent = args.values.intent as Intent | undefined
  const maxQueries = parseIntFlag('max-queries', args.values['max-queries'] as string | undefined, 1, 6)
  if (args.values.stdin) {
    if (query) throw new UsageError('give either a query or --stdin, not both')
    for await (const line of stdinLines(io.stdin))
      io.stdout.write(`${JSON.stringify(expandOne(line, intent, maxQueries))}\n`)
    return EXIT.ok
  }
  if (!query) throw new UsageError('give a query, e.g. search-layer expand "k8s operator", or --stdin')
  const result = expandOne(query, intent, maxQueries)
  if (args.values.json || !io.stdout.isTTY) io.stdout.write(`${JSON.stringify(result, null, 2)}\n`)
  else
    io.stdout.write(
      `${result.intent}: ${query}\n${result.queries.map((q, i) => `  ${i + 1}. ${q.query}  — ${q.reason}`).join('\n')}\n`,
    )
  return EXIT.ok
}

function expandOne(query: string, intent: Intent | undefined, maxQueries: number | undefined) {
  const classification = intent ? { ...strategyFor(intent), signals: [] } : classifyIntent(query)
  const { queries } = expandQuery(query, classification, { ...(maxQueries !== undefined && { maxQueries }) })
  return { query, intent: classification.intent, queries }
}
