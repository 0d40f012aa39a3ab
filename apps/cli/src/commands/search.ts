import type { Command } from '../command.js'
import { INTENT_CHOICES, MODE_CHOICES } from '../constants.js'
import { outputFormat } from './output-format.js'

export const searchCommand: Command = {
  name: 'search',
  summary: 'Search every configured provider at once; results deduplicated, tagged by source and scored by intent.',
  usage: 'search-layer [search] <query> [options]   |   search-layer search --queries "q1" "q2" … [options]',
  flags: {
    queries: {
      type: 'string',
      variadic: true,
      valueHint: 'query',
      description: 'several queries run side by side (no automatic expansion)',
    },
    mode: {
      type: 'string',
      choices: MODE_CHOICES,
      description: 'fast | deep | answer (default: chosen from the intent)',
    },
    intent: {
      type: 'string',
      choices: INTENT_CHOICES,
      description: 'auto (default) classifies the query; none keeps fused order, no scores',
    },
    freshness: {
      type: 'string',
      valueHint: 'pd|pw|pm|py|FROMtoTO',
      description: 'past day/week/month/year, or a date range 2026-01-01to2026-03-31',
    },
    num: { type: 'string', valueHint: '1-20', description: 'results per provider per query (default 5)' },
    'domain-boost': {
      type: 'string',
      valueHint: 'a.com,b.org',
      description: 'domains whose results get +0.2 authority',
    },
    'include-domains': { type: 'string', valueHint: 'a.com,b.org', description: 'only results from these domains' },
    'exclude-domains': { type: 'string', valueHint: 'a.com,b.org', description: 'no results from these domains' },
    source: { type: 'string', valueHint: 'brave,exa,tavily,grok', description: 'restrict to these providers' },
    'max-queries': {
      type: 'string',
      valueHint: '1-6',
      description: 'most sub-queries automatic expansion may add (default 3)',
    },
    timeout: {
      type: 'string',
      valueHint: 'ms',
      description: 'overall deadline; what arrived by then is returned (default 15000)',
    },
    wait: {
      type: 'string',
      choices: ['settled', 'all'],
      description:
        'settled (default): once the first engines answer, the slower ones get a grace, then results print; all: wait for every engine',
    },
    patience: {
      type: 'string',
      valueHint: 'ms',
      description: 'the grace the slower engines get (default the larger of 300 ms and half the time so far)',
    },
    'extract-refs': {
      type: 'boolean',
      description:
        'also extract the references of thread-like results (GitHub issues/PRs, HN, Reddit, V2EX) into "refs"',
    },
    'extract-refs-urls': {
      type: 'string',
      variadic: true,
      valueHint: 'url',
      description: 'skip the search: extract references of these URLs',
    },
    read: {
      type: 'string',
      valueHint: '0-10',
      // A number (also a bad one, to be refused by name) is the count; anything else is the query.
      optionalValue: /^[-+]?\d*\.?\d+$/,
      description: 'read the top N results (default 5) and add the evidence passages found in them',
    },
    'read-tokens': {
      type: 'string',
      valueHint: 'n',
      description: 'with --read: most tokens of passage text (default 2000)',
    },
    json: { type: 'boolean', description: 'print JSON (the default when stdout is not a terminal)' },
    format: {
      type: 'string',
      choices: ['json', 'markdown'],
      description: 'output format (default: markdown on a terminal, JSON otherwise)',
    },
    'max-chars': {
      type: 'string',
      valueHint: 'n',
      description: 'markdown output budget: long snippets are cut and tail results dropped, saying how many',
    },
    'no-cache': { type: 'boolean', description: 'do not read or write the response cache' },
    verbose: {
      type: 'boolean',
      description: 'print a line on stderr as each provider call starts and ends (instead of one live status line)',
    },
    explain: {
      type: 'boolean',
      description: 'include each score component, and what query operators (site:, after:, "…") did per provider',
    },
    help: { type: 'boolean', short: 'h', description: 'show this help' },
  },
  examples: [
    'search-layer "Bun vs Deno"',
    'search-layer "Rust 异步编程 教程" --json',
    'search-layer search --queries "Deno 2 latest" "Deno release notes" --mode deep --intent status --freshness pw',
    'search-layer "k8s operator docs" --source brave,exa --domain-boost kubernetes.io',
    'search-layer "is tokio select cancellation safe" --read 3',
  ],
  // From its own bundle through V8's code cache (see code-cache.ts), one cache per output format.
  run: (args, io) =>
    import('../code-cache.js').then(({ runCached }) =>
      runCached(
        new URL('./search-run.cjs', import.meta.url),
        io.env,
        () => import('./search-run.js'),
        (m) => m.runSearchCommand(args, io),
        { variant: outputFormat(args.values, io.stdout.isTTY) },
      ),
    ),
}
