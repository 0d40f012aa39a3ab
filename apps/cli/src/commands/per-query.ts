import { EXIT, UsageError } from '../io.js'
import { MAX_QUERY_CHARS } from '@search-layer/core'
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
    return answerLines(io, command)
  }
  if (!query) throw new UsageError(`give a query, e.g. ${command.example}, or --stdin`)
  if (query.length > MAX_QUERY_CHARS)
    throw new UsageError(`a query is at most ${MAX_QUERY_CHARS} characters (got ${query.length})`)
  const answer = command.answer(query)
  const json = args.values.json || !io.stdout.isTTY
  io.stdout.write(json ? `${JSON.stringify(answer, null, 2)}\n` : `${command.describe(query, answer)}\n`)
  return EXIT.ok
}

/**
 * `--stdin`: one JSON Lines record a query line, in order. A line too long to be a query gets a record saying so
 * in its place (the output stays line for line with the input) and the exit code is 1.
 */
async function answerLines<R>(io: CliIo, command: PerQueryCommand<R>): Promise<number> {
  let refused = 0
  for await (const line of stdinLines(io.stdin)) {
    if ('query' in line) {
      io.stdout.write(`${JSON.stringify(command.answer(line.query))}\n`)
      continue
    }
    refused++
    const error = `line ${line.tooLong}: a query is at most ${MAX_QUERY_CHARS} characters; this line is longer`
    io.stdout.write(`${JSON.stringify({ error })}\n`)
  }
  return refused ? EXIT.failure : EXIT.ok
}
