import { EXIT, UsageError } from '../io.js'
import { stdinLines } from './lines.js'
import type { ParsedCommandArgs } from '../args.js'
import type { CliIo } from '../io.js'

/** What a per-query command does with one query (see `PER_QUERY_FLAGS`). */
export interface PerQueryCommand<R> {
  /** The invocation named when no query is given: `search-layer intent "what is WebTransport"`. */
  example: string
  /** The answer for one query, printed as JSON. */
  answer(query: string): R
  /** The answer as a terminal reads it. */
  describe(query: string, answer: R): string
}

/**
 * Runs a per-query command: the positional query answered as JSON (`--json`, or stdout not a terminal) or as text,
 * or with `--stdin` every line answered as one JSON Lines record. Throws `UsageError` for both or neither.
 */
export async function runPerQuery<R>(args: ParsedCommandArgs, io: CliIo, command: PerQueryCommand<R>): Promise<number> {
  const query = args.positionals.join(' ').trim()
  if (args.values.stdin) {
    if (query) throw new UsageError('give either a query or --stdin, not both')
    for await (const line of stdinLines(io.stdin)) io.stdout.write(`${JSON.stringify(command.answer(line))}\n`)
    return EXIT.ok
  }
  if (!query) throw new UsageError(`give a query, e.g. ${command.example}, or --stdin`)
  const answer = command.answer(query)
  const json = args.values.json || !io.stdout.isTTY
  io.stdout.write(json ? `${JSON.stringify(answer, null, 2)}\n` : `${command.describe(query, answer)}\n`)
  return EXIT.ok
}
