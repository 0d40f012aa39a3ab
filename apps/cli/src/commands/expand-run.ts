import type { Intent } from '@search-layer/core'
import { expandQuery } from '@search-layer/expand'
import { classifyIntent, strategyFor } from '@search-layer/intent'
import { parseIntFlag } from '../flags.js'
import { runPerQuery } from './per-query.js'
import type { ParsedCommandArgs } from '../args.js'
import type { CliIo } from '../io.js'

/** The implementation, loaded only when the command runs. */
export async function runExpand(args: ParsedCommandArgs, io: CliIo): Promise<number> {
  const intent = args.values.intent as Intent | undefined
  const maxQueries = parseIntFlag('max-queries', args.values['max-queries'] as string | undefined, 1, 6)
  return runPerQuery(args, io, {
    example: 'search-layer expand "k8s operator"',
    answer: (query) => expandOne(query, intent, maxQueries),
    describe: (query, result) =>
      `${result.intent}: ${query}\n${result.queries.map((q, i) => `  ${i + 1}. ${q.query}  — ${q.reason}`).join('\n')}`,
  })
}

function expandOne(query: string, intent: Intent | undefined, maxQueries: number | undefined) {
  const classification = intent ? { ...strategyFor(intent), signals: [] } : classifyIntent(query)
  const { queries } = expandQuery(query, classification, { ...(maxQueries !== undefined && { maxQueries }) })
  return { query, intent: classification.intent, queries }
}
