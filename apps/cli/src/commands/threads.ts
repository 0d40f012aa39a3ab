import { isFetchError, fetchPage } from '@search-layer/page-fetch'
import { chainToMarkdown, extractRefsFromUrls, fetchThread, followChain, refsToMarkdown, threadRefsOnly, threadToMarkdown } from '@search-layer/thread-fetch'
import type { Command } from '../_command.js'
import { parseIntFlag } from '../_flags.js'
import { EXIT, UsageError } from '../_io.js'

const formatFlags = {
  json: { type: 'boolean', description: 'print JSON (the default when stdout is not a terminal)' },
  format: { type: 'string', choices: ['json', 'markdown'], description: 'output format (default: markdown on a terminal, JSON otherwise)' },
  timeout: { type: 'string', valueHint: 'ms', description: 'overall deadline (default 60000)' },
  help: { type: 'boolean', short: 'h', description: 'show this help' },
} as const

function wantsJson(values: Record<string, unknown>, isTTY: boolean | undefined): boolean {
  return Boolean(values.json) || values.format === 'json' || (values.format === undefined && !isTTY)
}

function urlsFrom(positionals: string[], command: string): string[] {
  if (positionals.length === 0) throw new UsageError(`give at least one URL, e.g. search-layer ${command} https://github.com/owner/repo/issues/123`)
  for (const url of positionals) {
    let parsed: URL
    try {
      parsed = new URL(url)
    } catch {
      throw new UsageError(`"${url}" is not a URL; give a full http(s) URL`)
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new UsageError(`"${url}" is not an http(s) URL`)
  }
  return positionals
}

export const threadCommand: Command = {
  name: 'thread',
  summary: 'Read a whole GitHub issue/PR, discussion, HN/Reddit/V2EX thread or page, with its typed references.',
  usage: 'search-layer thread <url> [--max-comments N] [--extract-refs-only] [--json]',
  flags: {
    'max-comments': { type: 'string', valueHint: '1-10000', description: 'most comments returned per list (default 1000; the cut is reported)' },
    'extract-refs-only': { type: 'boolean', description: 'print only the references (issues, PRs, commits, duplicates, links)' },
    ...formatFlags,
  },
  examples: ['search-layer thread https://github.com/nodejs/undici/issues/1412', 'search-layer thread https://news.ycombinator.com/item?id=8863 --json'],
  async run(args, io) {
    const [url] = urlsFrom(args.positionals, 'thread')
    if (args.positionals.length > 1) throw new UsageError('thread takes one URL; use "search-layer refs" for several')
    const maxComments = parseIntFlag('max-comments', args.values['max-comments'] as string | undefined, 1, 10_000)
    const deadlineMs = parseIntFlag('timeout', args.values.timeout as string | undefined, 100, 600_000)
    const thread = await fetchThread(url!, { env: io.env, ...(maxComments && { maxComments }), ...(deadlineMs && { deadlineMs }) })
    const json = wantsJson(args.values, io.stdout.isTTY)
    if (args.values['extract-refs-only']) {
      const refs = threadRefsOnly(thread)
      io.stdout.write(json ? `${JSON.stringify(refs, null, 2)}\n` : `${refsToMarkdown(thread.refs)}\n`)
    } else io.stdout.write(json ? `${JSON.stringify(thread, null, 2)}\n` : `${threadToMarkdown(thread)}\n`)
    return thread.error ? EXIT.failure : EXIT.ok
  },
}

export const refsCommand: Command = {
  name: 'refs',
  summary: 'Extract the typed references (#123, owner/repo#123, commits, duplicates, cross-references, links) of one or more URLs.',
  usage: 'search-layer refs <url…> [--json]',
  flags: { concurrency: { type: 'string', valueHint: '1-16', description: 'threads fetched at once (default 4)' }, ...formatFlags },
  examples: ['search-layer refs https://github.com/owner/repo/issues/123 https://github.com/owner/repo/pull/456'],
  async run(args, io) {
    const urls = urlsFrom(args.positionals, 'refs')
    const urlConcurrency = parseIntFlag('concurrency', args.values.concurrency as string | undefined, 1, 16)
    const deadlineMs = parseIntFlag('timeout', args.values.timeout as string | undefined, 100, 600_000)
    const results = await extractRefsFromUrls(urls, { env: io.env, ...(urlConcurrency && { urlConcurrency }), ...(deadlineMs && { deadlineMs }) })
    if (wantsJson(args.values, io.stdout.isTTY)) io.stdout.write(`${JSON.stringify({ refs: results }, null, 2)}\n`)
    else {
      for (const r of results) {
        io.stdout.write(`## ${r.title ?? r.url}\n${r.url}\n\n${r.error ? `_Could not read it: ${r.error.kind} — ${r.error.message}_` : refsToMarkdown(r.refs)}\n\n`)
      }
    }
    return results.every((r) => r.error) ? EXIT.failure : EXIT.ok
  },
}

export const chainCommand: Command = {
  name: 'chain',
  summary: 'Follow the most relevant references from seed URLs, breadth-first (default depth 3), and summarise each thread.',
  usage: 'search-layer chain <url…> --query "<what you are looking for>" [--depth N] [--max-nodes N] [--json]',
  flags: {
    query: { type: 'string', valueHint: 'text', description: 'what the chain is about; drives which references are followed (required)' },
    depth: { type: 'string', valueHint: '1-5', description: 'how many hops from the seeds (default 3)' },
    'max-nodes': { type: 'string', valueHint: '1-200', description: 'most threads read in total (default 20)' },
    ...formatFlags,
  },
  examples: ['search-layer chain https://github.com/owner/repo/issues/123 --query "memory leak on reconnect"'],
  async run(args, io) {
    const seeds = urlsFrom(args.positionals, 'chain')
    const query = (args.values.query as string | undefined)?.trim()
    if (!query) throw new UsageError('--query is required: say what the chain is about, e.g. --query "memory leak on reconnect"')
    const maxDepth = parseIntFlag('depth', args.values.depth as string | undefined, 1, 5)
    const maxNodes = parseIntFlag('max-nodes', args.values['max-nodes'] as string | undefined, 1, 200)
    const deadlineMs = parseIntFlag('timeout', args.values.timeout as string | undefined, 100, 600_000)
    const chain = await followChain(seeds, { query, env: io.env, ...(maxDepth && { maxDepth }), ...(maxNodes && { maxNodes }), ...(deadlineMs && { deadlineMs }) })
    io.stdout.write(wantsJson(args.values, io.stdout.isTTY) ? `${JSON.stringify(chain, null, 2)}\n` : `${chainToMarkdown(chain)}\n`)
    return EXIT.ok
  },
}

export const fetchCommand: Command = {
  name: 'fetch',
  summary: 'Fetch a web page safely (no private addresses, size-capped) and print it as readable markdown.',
  usage: 'search-layer fetch <url> [--json] [--max-bytes N]',
  flags: { 'max-bytes': { type: 'string', valueHint: 'bytes', description: 'largest page accepted (default 5 MiB)' }, ...formatFlags },
  examples: ['search-layer fetch https://example.com/blog/post', 'search-layer fetch https://example.com/post --json | jq .links'],
  async run(args, io) {
    const [url] = urlsFrom(args.positionals, 'fetch')
    const maxBytes = parseIntFlag('max-bytes', args.values['max-bytes'] as string | undefined, 1024, 100 * 1024 * 1024)
    const timeoutMs = parseIntFlag('timeout', args.values.timeout as string | undefined, 100, 600_000)
    try {
      const page = await fetchPage(url!, { env: io.env, ...(maxBytes && { maxBytes }), ...(timeoutMs && { timeoutMs }) })
      if (wantsJson(args.values, io.stdout.isTTY)) io.stdout.write(`${JSON.stringify(page, null, 2)}\n`)
      else {
        const meta = [page.byline, page.siteName, page.publishedAt?.slice(0, 10)].filter(Boolean).join(' · ')
        io.stdout.write(`# ${page.title ?? page.finalUrl}\n\n${meta ? `_${meta}_ — ` : ''}<${page.finalUrl}>\n\n${page.markdown.trim()}\n`)
      }
      return EXIT.ok
    } catch (error) {
      if (!isFetchError(error)) throw error
      io.stderr.write(`search-layer fetch: ${error.kind}: ${error.message}\n`)
      return error.kind === 'bad_url' ? EXIT.usage : EXIT.failure
    }
  },
}
