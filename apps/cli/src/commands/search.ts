import type { Intent } from '@search-layer/core'
import { type SearchProgress, type SearchRequest, createSearchLayer } from '@search-layer/engine'
import { extractRefsFromUrls, refsToMarkdown } from '@search-layer/thread-fetch'
import type { Command } from '../_command.js'
import { engineOptionsFromEnv } from '../_engine-options.js'
import { INTENT_CHOICES, MODE_CHOICES, parseFreshnessFlag, parseIntFlag, parseList, parseSources } from '../_flags.js'
import { formatSearchMarkdown } from '../_format.js'
import { EXIT, UsageError } from '../_io.js'

export const searchCommand: Command = {
  name: 'search',
  summary: 'Search every configured provider at once; results deduplicated, tagged by source and scored by intent.',
  usage: 'search-layer [search] <query> [options]   |   search-layer search --queries "q1" "q2" … [options]',
  flags: {
    queries: { type: 'string', variadic: true, valueHint: 'query', description: 'several queries run side by side (no automatic expansion)' },
    mode: { type: 'string', choices: MODE_CHOICES, description: 'fast | deep | answer (default: chosen from the intent)' },
    intent: { type: 'string', choices: INTENT_CHOICES, description: 'auto (default) classifies the query; none keeps fused order, no scores' },
    freshness: { type: 'string', valueHint: 'pd|pw|pm|py|FROMtoTO', description: 'past day/week/month/year, or a date range 2026-01-01to2026-03-31' },
    num: { type: 'string', valueHint: '1-20', description: 'results per provider per query (default 5)' },
    'domain-boost': { type: 'string', valueHint: 'a.com,b.org', description: 'domains whose results get +0.2 authority' },
    'include-domains': { type: 'string', valueHint: 'a.com,b.org', description: 'only results from these domains' },
    'exclude-domains': { type: 'string', valueHint: 'a.com,b.org', description: 'no results from these domains' },
    source: { type: 'string', valueHint: 'brave,exa,tavily,grok', description: 'restrict to these providers' },
    'max-queries': { type: 'string', valueHint: '1-6', description: 'most sub-queries automatic expansion may add (default 3)' },
    timeout: { type: 'string', valueHint: 'ms', description: 'overall deadline; what arrived by then is returned (default 15000)' },
    'extract-refs': { type: 'boolean', description: 'also extract the references of thread-like results (GitHub issues/PRs, HN, Reddit, V2EX) into "refs"' },
    'extract-refs-urls': { type: 'string', variadic: true, valueHint: 'url', description: 'skip the search: extract references of these URLs' },
    json: { type: 'boolean', description: 'print JSON (the default when stdout is not a terminal)' },
    format: { type: 'string', choices: ['json', 'markdown'], description: 'output format (default: markdown on a terminal, JSON otherwise)' },
    'max-chars': { type: 'string', valueHint: 'n', description: 'markdown output budget: long snippets are cut and tail results dropped, saying how many' },
    'no-cache': { type: 'boolean', description: 'do not read or write the response cache' },
    explain: { type: 'boolean', description: 'include each score component (keyword, freshness, authority)' },
    help: { type: 'boolean', short: 'h', description: 'show this help' },
  },
  examples: [
    'search-layer "Bun vs Deno"',
    'search-layer "Rust 异步编程 教程" --json',
    'search-layer search --queries "Deno 2 latest" "Deno release notes" --mode deep --intent status --freshness pw',
    'search-layer "k8s operator docs" --source brave,exa --domain-boost kubernetes.io',
  ],
  async run(args, io) {
    const v = args.values
    const queries = (v.queries as string[] | undefined) ?? []
    const positional = args.positionals.join(' ').trim()
    const refsUrls = v['extract-refs-urls'] as string[] | undefined
    if (refsUrls) {
      if (positional || queries.length) throw new UsageError('--extract-refs-urls skips the search: give URLs only, no query')
      const refs = await extractRefsFromUrls(refsUrls, { env: io.env })
      io.stdout.write(`${JSON.stringify({ refs }, null, 2)}\n`)
      return refs.every((r) => r.error) ? EXIT.failure : EXIT.ok
    }
    if (!positional && queries.length === 0) throw new UsageError('give a query, e.g. search-layer "rust async runtime", or --queries "q1" "q2"')
    const request: SearchRequest = {
      ...(queries.length ? { queries: positional ? [positional, ...queries] : queries } : { query: positional }),
      ...(v.mode !== undefined && { mode: v.mode as SearchRequest['mode'] }),
      ...(v.intent !== undefined && { intent: v.intent as Intent | 'auto' | 'none' }),
      ...(v.freshness !== undefined && { freshness: parseFreshnessFlag(v.freshness as string) }),
      ...(v.num !== undefined && { num: parseIntFlag('num', v.num as string, 1, 20) }),
      ...(v['max-queries'] !== undefined && { maxQueries: parseIntFlag('max-queries', v['max-queries'] as string, 1, 6) }),
      ...(v.timeout !== undefined && { deadlineMs: parseIntFlag('timeout', v.timeout as string, 100, 120_000) }),
      ...(v['domain-boost'] !== undefined && { domainBoost: parseList(v['domain-boost'] as string) }),
      ...(v['include-domains'] !== undefined && { includeDomains: parseList(v['include-domains'] as string) }),
      ...(v['exclude-domains'] !== undefined && { excludeDomains: parseList(v['exclude-domains'] as string) }),
      ...(v.source !== undefined && { sources: parseSources(v.source as string) }),
      explain: Boolean(v.explain),
      cache: !v['no-cache'],
    }
    const format = v.json ? 'json' : ((v.format as string | undefined) ?? (io.stdout.isTTY ? 'markdown' : 'json'))
    const layer = createSearchLayer(engineOptionsFromEnv(io.env, { cache: !v['no-cache'] }))
    const onProgress = io.stderr.isTTY ? (event: SearchProgress) => io.stderr.write(progressLine(event)) : undefined
    const searched = await layer.search(request, { ...(onProgress && { onProgress }) })
    // The original skill's --extract-refs: the reference graph of the results that are discussions.
    const response = v['extract-refs'] ? { ...searched, refs: await extractRefsFromUrls(threadUrls(searched.results.map((r) => r.url)), { env: io.env }) } : searched
    const maxChars = parseIntFlag('max-chars', v['max-chars'] as string | undefined, 200, 1_000_000)
    if (format === 'json') io.stdout.write(`${JSON.stringify(response, null, 2)}\n`)
    else {
      io.stdout.write(await formatSearchMarkdown(searched, io.env, { ...(maxChars && { maxChars }) }))
      for (const thread of 'refs' in response ? response.refs : []) {
        io.stdout.write(`\n## References in ${thread.title ?? thread.url}\n\n${thread.error ? `_Could not read it: ${thread.error.message}_` : refsToMarkdown(thread.refs)}\n`)
      }
    }
    const anyOk = Object.values(response.providers).some((p) => p.status === 'ok')
    if (!anyOk) {
      io.stderr.write('search-layer: every provider failed; see "providers" in the output for each error.\n')
      return EXIT.allProvidersFailed
    }
    return EXIT.ok
  },
}

const THREAD_URL = /^https?:\/\/(?:www\.)?(?:github\.com\/[^/]+\/[^/]+\/(?:issues|pull|discussions)\/\d+|news\.ycombinator\.com\/item\?id=\d+|(?:old\.|www\.)?reddit\.com\/r\/[^/]+\/comments\/|v2ex\.com\/t\/\d+)/i
const MAX_REF_THREADS = 10

/** Result URLs that are discussions worth pulling references from (at most ten, in rank order). */
function threadUrls(urls: readonly string[]): string[] {
  return urls.filter((u) => THREAD_URL.test(u)).slice(0, MAX_REF_THREADS)
}

function progressLine(event: SearchProgress): string {
  switch (event.type) {
    case 'started':
      return `… ${event.provider}: "${event.query}"\n`
    case 'done':
      return `✓ ${event.provider}: ${event.results} results in ${event.ms} ms\n`
    case 'failed':
      return `✗ ${event.provider}: ${event.kind} — ${event.message}\n`
    case 'skipped':
      return `- ${event.provider}: skipped (${event.reason})\n`
  }
}
