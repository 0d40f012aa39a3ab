import type { Command } from '../command.js'

const formatFlags = {
  json: { type: 'boolean', description: 'print JSON (the default when stdout is not a terminal)' },
  format: {
    type: 'string',
    choices: ['json', 'markdown'],
    description: 'output format (default: markdown on a terminal, JSON otherwise)',
  },
  timeout: { type: 'string', valueHint: 'ms', description: 'overall deadline (default 60000)' },
  help: { type: 'boolean', short: 'h', description: 'show this help' },
} as const

export const threadCommand: Command = {
  name: 'thread',
  summary: 'Read a whole GitHub issue/PR, discussion, HN/Reddit/V2EX thread or page, with its typed references.',
  usage: 'search-layer thread <url> [--max-comments N] [--extract-refs-only] [--json]',
  flags: {
    'max-comments': {
      type: 'string',
      valueHint: '1-10000',
      description: 'most comments returned per list (default 1000; the cut is reported)',
    },
    'extract-refs-only': {
      type: 'boolean',
      description: 'print only the references (issues, PRs, commits, duplicates, links)',
    },
    ...formatFlags,
  },
  examples: [
    'search-layer thread https://github.com/nodejs/undici/issues/1412',
    'search-layer thread https://news.ycombinator.com/item?id=8863 --json',
  ],
  run: (args, io) => import('./threads-run.js').then((m) => m.runThread(args, io)),
}

export const refsCommand: Command = {
  name: 'refs',
  summary:
    'Extract the typed references (#123, owner/repo#123, commits, duplicates, cross-references, links) of one or more URLs.',
  usage: 'search-layer refs <url…> [--json]',
  flags: {
    concurrency: { type: 'string', valueHint: '1-16', description: 'threads fetched at once (default 4)' },
    ...formatFlags,
  },
  examples: ['search-layer refs https://github.com/owner/repo/issues/123 https://github.com/owner/repo/pull/456'],
  run: (args, io) => import('./threads-run.js').then((m) => m.runRefs(args, io)),
}

export const chainCommand: Command = {
  name: 'chain',
  summary:
    'Follow the most relevant references from seed URLs, breadth-first (default depth 3), and summarise each thread.',
  usage: 'search-layer chain <url…> --query "<what you are looking for>" [--depth N] [--max-nodes N] [--json]',
  flags: {
    query: {
      type: 'string',
      valueHint: 'text',
      description: 'what the chain is about; drives which references are followed (required)',
    },
    depth: { type: 'string', valueHint: '1-5', description: 'how many hops from the seeds (default 3)' },
    'max-nodes': { type: 'string', valueHint: '1-200', description: 'most threads read in total (default 20)' },
    ...formatFlags,
  },
  examples: ['search-layer chain https://github.com/owner/repo/issues/123 --query "memory leak on reconnect"'],
  run: (args, io) => import('./threads-run.js').then((m) => m.runChain(args, io)),
}

export const fetchCommand: Command = {
  name: 'fetch',
  summary: 'Fetch a web page safely (no private addresses, size-capped) and print it as readable markdown.',
  usage: 'search-layer fetch <url> [--json] [--max-bytes N]',
  flags: {
    'max-bytes': { type: 'string', valueHint: 'bytes', description: 'largest page accepted (default 5 MiB)' },
    ...formatFlags,
  },
  examples: [
    'search-layer fetch https://example.com/blog/post',
    'search-layer fetch https://example.com/post --json | jq .links',
  ],
  run: (args, io) => import('./threads-run.js').then((m) => m.runFetch(args, io)),
}
