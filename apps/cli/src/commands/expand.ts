import { INTENT_LIST } from '../constants.js'
import type { Command } from '../command.js'
import { PER_QUERY_FLAGS } from './per-query-flags.js'

export const expandCommand: Command = {
  name: 'expand',
  summary: 'Show the sub-queries a search would run: synonyms, English variants of Chinese queries, per-intent angles.',
  usage:
    'search-layer expand <query> [--intent X] [--max-queries N] [--json]   |   search-layer expand --stdin < queries.txt',
  flags: {
    intent: { type: 'string', choices: INTENT_LIST, description: 'expand as this intent instead of classifying' },
    'max-queries': {
      type: 'string',
      valueHint: '1-6',
      description: 'most sub-queries, the original included (default 3)',
    },
    ...PER_QUERY_FLAGS,
  },
  examples: [
    'search-layer expand "k8s operator tutorial"',
    'search-layer expand "Bun vs Deno" --json',
    'search-layer expand "Rust 异步编程"',
  ],
  run: (args, io) => import('./expand-run.js').then((m) => m.runExpand(args, io)),
}
