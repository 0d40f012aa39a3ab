import { INTENTS, type Intent } from '@search-layer/core'
import { expandQuery } from '@search-layer/expand'
import { classifyIntent, strategyFor } from '@search-layer/intent'
import type { Command } from '../_command.js'
import { parseIntFlag } from '../_flags.js'
import { EXIT, UsageError } from '../_io.js'
import { stdinLines } from './_lines.js'

function expandOne(query: string, intent: Intent | undefined, maxQueries: number | undefined) {
  const classification = intent ? { ...strategyFor(intent), signals: [] } : classifyIntent(query)
  const { queries } = expandQuery(query, classification, { ...(maxQueries !== undefined && { maxQueries }) })
  return { query, intent: classification.intent, queries }
}

export const expandCommand: Command = {
  name: 'expand',
  summary: 'Show the sub-queries a search would run: synonyms, English variants of Chinese queries, per-intent angles.',
  usage: 'search-layer expand <query> [--intent X] [--max-queries N] [--json]   |   search-layer expand --stdin < queries.txt',
  flags: {
    intent: { type: 'string', choices: INTENTS, description: 'expand as this intent instead of classifying' },
    'max-queries': { type: 'string', valueHint: '1-6', description: 'most sub-queries, the original included (default 3)' },
    json: { type: 'boolean', description: 'print JSON (the default when stdout is not a terminal)' },
    stdin: { type: 'boolean', description: 'read one query per line from stdin; print one JSON object per line (JSON Lines)' },
    help: { type: 'boolean', short: 'h', description: 'show this help' },
  },
  examples: ['search-layer expand "k8s operator tutorial"', 'search-layer expand "Bun vs Deno" --json', 'search-layer expand "Rust 异步编程"'],
  async run(args, io) {
    const query = args.positionals.join(' ').trim()
    const intent = args.values.intent as Intent | undefined
    const maxQueries = parseIntFlag('max-queries', args.values['max-queries'] as string | undefined, 1, 6)
    if (args.values.stdin) {
      if (query) throw new UsageError('give either a query or --stdin, not both')
      for await (const line of stdinLines(io.stdin)) io.stdout.write(`${JSON.stringify(expandOne(line, intent, maxQueries))}\n`)
      return EXIT.ok
    }
    if (!query) throw new UsageError('give a query, e.g. search-layer expand "k8s operator", or --stdin')
    const result = expandOne(query, intent, maxQueries)
    if (args.values.json || !io.stdout.isTTY) io.stdout.write(`${JSON.stringify(result, null, 2)}\n`)
    else io.stdout.write(`${result.intent}: ${query}\n${result.queries.map((q, i) => `  ${i + 1}. ${q.query}  — ${q.reason}`).join('\n')}\n`)
    return EXIT.ok
  },
}
