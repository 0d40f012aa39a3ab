import type { Command } from '../command.js'
import { PER_QUERY_FLAGS } from './per-query-flags.js'

export const intentCommand: Command = {
  name: 'intent',
  summary: 'Classify a query into an intent and show the strategy it implies (mode, freshness, weights) and why.',
  usage: 'search-layer intent <query> [--json]   |   search-layer intent --stdin < queries.txt',
  flags: PER_QUERY_FLAGS,
  examples: [
    'search-layer intent "Bun vs Deno"',
    'search-layer intent "Rust 异步编程 教程" --json',
    'search-layer intent --stdin < queries.txt > intents.jsonl',
  ],
  run: (args, io) => import('./intent-run.js').then((m) => m.runIntent(args, io)),
}
