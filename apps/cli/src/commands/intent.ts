import { type IntentClassification, classifyIntent } from '@search-layer/intent'
import type { Command } from '../_command.js'
import { EXIT, UsageError } from '../_io.js'
import { stdinLines } from './_lines.js'

function describe(query: string, c: IntentClassification): string {
  const w = c.weights
  const signals = c.signals.length ? c.signals.map((s) => `"${s.term}" → ${s.intent} (${s.lang})`).join(', ') : 'none (default)'
  return [
    `${c.intent}  (confidence ${c.confidence.toFixed(2)})  for "${query}"`,
    `  mode ${c.mode}, freshness ${c.freshness ?? 'any'}, weights keyword ${w.keyword} · freshness ${w.freshness} · authority ${w.authority}`,
    `  signals: ${signals}`,
  ].join('\n')
}

export const intentCommand: Command = {
  name: 'intent',
  summary: 'Classify a query into an intent and show the strategy it implies (mode, freshness, weights) and why.',
  usage: 'search-layer intent <query> [--json]   |   search-layer intent --stdin < queries.txt',
  flags: {
    json: { type: 'boolean', description: 'print JSON (the default when stdout is not a terminal)' },
    stdin: { type: 'boolean', description: 'read one query per line from stdin; print one JSON object per line (JSON Lines)' },
    help: { type: 'boolean', short: 'h', description: 'show this help' },
  },
  examples: ['search-layer intent "Bun vs Deno"', 'search-layer intent "Rust 异步编程 教程" --json', 'search-layer intent --stdin < queries.txt > intents.jsonl'],
  async run(args, io) {
    const query = args.positionals.join(' ').trim()
    if (args.values.stdin) {
      if (query) throw new UsageError('give either a query or --stdin, not both')
      for await (const line of stdinLines(io.stdin)) io.stdout.write(`${JSON.stringify({ query: line, ...classifyIntent(line) })}\n`)
      return EXIT.ok
    }
    if (!query) throw new UsageError('give a query, e.g. search-layer intent "what is WebTransport", or --stdin')
    const result = classifyIntent(query)
    const json = args.values.json || !io.stdout.isTTY
    io.stdout.write(json ? `${JSON.stringify({ query, ...result }, null, 2)}\n` : `${describe(query, result)}\n`)
    return EXIT.ok
  },
}
