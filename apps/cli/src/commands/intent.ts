import type { Command } from '../command.js'

export const intentCommand: Command = {
  name: 'intent',
  summary: 'Classify a query into an intent and show the strategy it implies (mode, freshness, weights) and why.',
  usage: 'search-layer intent <query> [--json]   |   search-layer intent --stdin < queries.txt',
  flags: {
    json: { type: 'boolean', description: 'print JSON (the default when stdout is not a terminal)' },
    stdin: {
      type: 'boolean',
      description: 'read one query per line from stdin; print one JSON object per line (JSON Lines)',
    },
    help: { type: 'boolean', short: 'h', description: 'show this help' },
  },
  examples: [
    'search-layer intent "Bun vs Deno"',
    'search-layer intent "Rust 异步编程 教程" --json',
    'search-layer intent --stdin < queries.txt > intents.jsonl',
  ],
  run: (args, io) => import('./intent-run.js').then((m) => m.runIntent(args, io)),
}
