import { type IntentClassification, classifyIntent } from '@search-layer/intent'
import { EXIT, UsageError } from '../io.js'
import { stdinLines } from './lines.js'
import type { ParsedCommandArgs } from '../args.js'
import type { CliIo } from '../io.js'

/** The implementation, loaded only when the command runs. */
export async function runIntent(args: ParsedCommandArgs, io: CliIo): Promise<number> {
  const query = args.positionals.join(' ').trim()
  if (args.values.stdin) {
    if (query) throw new UsageError('give either a query or --stdin, not both')
    for await (const line of stdinLines(io.stdin))
      io.stdout.write(`${JSON.stringify({ query: line, ...classifyIntent(line) })}\n`)
    return EXIT.ok
  }
  if (!query) throw new UsageError('give a query, e.g. search-layer intent "what is WebTransport", or --stdin')
  const result = classifyIntent(query)
  const json = args.values.json || !io.stdout.isTTY
  io.stdout.write(json ? `${JSON.stringify({ query, ...result }, null, 2)}\n` : `${describe(query, result)}\n`)
  return EXIT.ok
}

function describe(query: string, c: IntentClassification): string {
  const w = c.weights
  const signals = c.signals.length
    ? c.signals.map((s) => `"${s.term}" → ${s.intent} (${s.lang})`).join(', ')
    : 'none (default)'
  return [
    `${c.intent}  (confidence ${c.confidence.toFixed(2)}${c.uncertain ? `, uncertain: ${c.uncertainty}` : ''})  for "${query}"`,
    `  mode ${c.mode}, freshness ${c.freshness ?? 'any'}, weights keyword ${w.keyword} · freshness ${w.freshness} · authority ${w.authority}`,
    `  signals: ${signals}`,
  ].join('\n')
}
