import '../one-shot.js'
import type { Intent } from '@search-layer/core'
import {
  type SearchLayer,
  type SearchProgress,
  type SearchRequest,
  type SearchResponse,
  MAX_PATIENCE_MS,
  createSearchLayer,
} from '@search-layer/engine'
import { engineOptionsFromEnv } from '../engine-options.js'
import { loadProviders } from '../providers.js'
import { parseDomainsFlag, parseFreshnessFlag, parseIntFlag, parseReadFlags, parseSources } from '../flags.js'
import { formatSearchMarkdown } from '../format.js'
import { EXIT, UsageError } from '../io.js'
import { terminalSafe } from '../terminal-text.js'
import { type StatusLine, createStatusLine } from '../status-line.js'
import { colourTerminal } from '../terminal-colour.js'
import type { ParsedCommandArgs } from '../args.js'
import type { CliIo } from '../io.js'
import { collectYoungGeneration } from '../one-shot-flags.js'
import { checkConfig, writeConfigProblems } from './config-problems.js'
import { outputFormat } from './output-format.js'

/** The implementation, loaded only when the command runs. */
export async function runSearchCommand(args: ParsedCommandArgs, io: CliIo): Promise<number> {
  const v = args.values
  const queries = (v.queries as string[] | undefined) ?? []
  const positional = args.positionals.join(' ').trim()
  const refsUrls = v['extract-refs-urls'] as string[] | undefined
  if (refsUrls) {
    if (positional || queries.length)
      throw new UsageError('--extract-refs-urls skips the search: give URLs only, no query')
    const { extractRefsFromUrls } = await threadFetch()
    const refs = await extractRefsFromUrls(refsUrls, { env: io.env })
    io.stdout.write(`${JSON.stringify({ refs }, null, 2)}\n`)
    return refs.every((r) => r.error) ? EXIT.failure : EXIT.ok
  }
  if (!positional && queries.length === 0)
    throw new UsageError('give a query, e.g. search-layer "rust async runtime", or --queries "q1" "q2"')
  const providers = await loadProviders(io.env)
  const request: SearchRequest = {
    ...(queries.length ? { queries: positional ? [positional, ...queries] : queries } : { query: positional }),
    ...(v.mode !== undefined && { mode: v.mode as SearchRequest['mode'] }),
    ...(v.intent !== undefined && { intent: v.intent as Intent | 'auto' | 'none' }),
    ...(v.freshness !== undefined && { freshness: parseFreshnessFlag(v.freshness as string) }),
    ...(v.num !== undefined && { num: parseIntFlag('num', v.num as string, 1, 20) }),
    ...(v['max-queries'] !== undefined && {
      maxQueries: parseIntFlag('max-queries', v['max-queries'] as string, 1, 6),
    }),
    ...(v.timeout !== undefined && { deadlineMs: parseIntFlag('timeout', v.timeout as string, 100, 120_000) }),
    ...(v.wait !== undefined && { wait: v.wait as 'settled' | 'all' }),
    ...(v.patience !== undefined && { patienceMs: parseIntFlag('patience', v.patience as string, 0, MAX_PATIENCE_MS) }),
    ...(v['domain-boost'] !== undefined && {
      domainBoost: parseDomainsFlag('domain-boost', v['domain-boost'] as string),
    }),
    ...(v['include-domains'] !== undefined && {
      includeDomains: parseDomainsFlag('include-domains', v['include-domains'] as string),
    }),
    ...(v['exclude-domains'] !== undefined && {
      excludeDomains: parseDomainsFlag('exclude-domains', v['exclude-domains'] as string),
    }),
    ...(v.source !== undefined && {
      sources: parseSources(
        v.source as string,
        providers.map((d) => d.id),
      ),
    }),
    explain: Boolean(v.explain),
    cache: !v['no-cache'],
  }
  const read = parseReadFlags(v.read as string | undefined, v['read-tokens'] as string | undefined)
  if (read !== undefined) request.read = read
  const format = outputFormat(v, io.stdout.isTTY)
  // Before the search: a bad value is refused without waiting for one.
  const maxChars = parseIntFlag('max-chars', v['max-chars'] as string | undefined, 200, 1_000_000)
  const configProblems = checkConfig(io.env, providers).problems
  const engineOptions = engineOptionsFromEnv(io.env, { cache: !v['no-cache'], providers, oneShot: true })
  const status = progressReporter(io, Boolean(v.verbose))
  let response: SearchOutcome
  let output: string
  try {
    response = await searchWithRefs(createSearchLayer(engineOptions), request, status, {
      settled: engineOptions.settled,
      refs: Boolean(v['extract-refs']),
      env: io.env,
    })
    output =
      format === 'json'
        ? `${JSON.stringify(response, null, 2)}\n`
        : await markdownOutput(response, io, { ...(maxChars && { maxChars }), explain: Boolean(v.explain) })
  } finally {
    // Erased before anything else is written, the result or an error.
    status?.clear?.()
  }
  io.stdout.write(output)
  // After the output: a broken file or variable is named, and the search still ran on what was valid.
  writeConfigProblems(configProblems, 'search', io)
  const anyOk = Object.values(response.providers).some((p) => p.status === 'ok')
  if (!anyOk) {
    io.stderr.write('search-layer: every provider failed; see "providers" in the output for each error.\n')
    return EXIT.allProvidersFailed
  }
  return EXIT.ok
}

// Thread fetching (DOM parser, readability) loads only when references are asked for.
const threadFetch = () => import('@search-layer/thread-fetch')
type ThreadFetch = Awaited<ReturnType<typeof threadFetch>>

const THREAD_URL =
  /^https?:\/\/(?:www\.)?(?:github\.com\/[^/]+\/[^/]+\/(?:issues|pull|discussions)\/\d+|news\.ycombinator\.com\/item\?id=\d+|(?:old\.|www\.)?reddit\.com\/r\/[^/]+\/comments\/|v2ex\.com\/t\/\d+)/i
const MAX_REF_THREADS = 10

/** Result URLs that are discussions worth pulling references from (at most ten, in rank order). */
function threadUrls(urls: readonly string[]): string[] {
  return urls.filter((u) => THREAD_URL.test(u)).slice(0, MAX_REF_THREADS)
}

type SearchOutcome = SearchResponse & { refs?: Awaited<ReturnType<ThreadFetch['extractRefsFromUrls']>> }

async function searchWithRefs(
  layer: SearchLayer,
  request: SearchRequest,
  status: Pick<StatusLine, 'onProgress'> | undefined,
  { settled, refs, env }: { settled: () => Promise<void>; refs: boolean; env: CliIo['env'] },
): Promise<SearchOutcome> {
  let searched: SearchResponse
  try {
    searched = await layer.search(request, {
      ...(status && { onProgress: status.onProgress }),
      onCallsSent: collectYoungGeneration,
    })
  } finally {
    // What the answers taught about each key, for the next run's pace: written once, here (see engine-options.ts).
    await settled()
  }
  if (!refs) return searched
  // The original skill's --extract-refs: the reference graph of the results that are discussions.
  const { extractRefsFromUrls } = await threadFetch()
  return { ...searched, refs: await extractRefsFromUrls(threadUrls(searched.results.map((r) => r.url)), { env }) }
}

async function markdownOutput(
  response: SearchOutcome,
  io: CliIo,
  options: { maxChars?: number; explain: boolean },
): Promise<string> {
  const markdown = await formatSearchMarkdown(response, io.env, options)
  return forTerminal(`${markdown}${await referencesMarkdown(response)}`, io)
}

/** The References sections of `--extract-refs`, one per discussion read. */
async function referencesMarkdown(response: SearchOutcome): Promise<string> {
  const threads = response.refs ?? []
  if (threads.length === 0) return ''
  const { refsToMarkdown } = await threadFetch()
  return threads
    .map(
      (thread) =>
        `\n## References in ${thread.title ?? thread.url}\n\n${thread.error ? `_Could not read it: ${thread.error.message}_` : refsToMarkdown(thread.refs)}\n`,
    )
    .join('')
}

/**
 * Markdown made safe for a terminal (see terminal-text.ts), then rendered (bold, links, lists) on a colour terminal;
 * plain when piped, with NO_COLOR or TERM=dumb. The renderer loads only then.
 */
async function forTerminal(markdown: string, io: CliIo): Promise<string> {
  const safe = terminalSafe(markdown)
  if (!colourTerminal(io.stdout, io.env)) return safe
  const { renderTerminalMarkdown } = await import('../terminal-markdown.js')
  return renderTerminalMarkdown(safe)
}

/**
 * What stderr shows while the search waits: with `--verbose`, a line per call started and finished (anywhere, for
 * logs and debugging); on a terminal that can redraw a line, one live status line, erased before the result prints;
 * otherwise nothing.
 */
function progressReporter(
  io: CliIo,
  verbose: boolean,
): (Pick<StatusLine, 'onProgress'> & { clear?: () => void }) | undefined {
  if (verbose) return { onProgress: (event) => io.stderr.write(terminalSafe(progressLine(event))) }
  if (!io.stderr.isTTY || io.env.TERM === 'dumb') return undefined
  return createStatusLine(io.stderr)
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
    default:
      return ''
  }
}
