import '../one-shot.js'
import { isFetchError, fetchPage } from '@search-layer/page-fetch'
import {
  chainToMarkdown,
  extractRefsFromUrls,
  fetchThread,
  followChain,
  refsToMarkdown,
  threadRefsOnly,
  threadToMarkdown,
} from '@search-layer/thread-fetch'
import { parseIntFlag } from '../flags.js'
import { terminalSafe } from '../terminal-text.js'
import { outputFormat } from './output-format.js'
import { EXIT, UsageError } from '../io.js'
import type { ParsedCommandArgs } from '../args.js'
import type { CliIo } from '../io.js'

/** The implementation, loaded only when the command runs. */
export async function runThread(args: ParsedCommandArgs, io: CliIo): Promise<number> {
  const [url] = urlsFrom(args.positionals, 'thread')
  if (args.positionals.length > 1) throw new UsageError('thread takes one URL; use "search-layer refs" for several')
  const maxComments = parseIntFlag('max-comments', args.values['max-comments'] as string | undefined, 1, 10_000)
  const deadlineMs = parseIntFlag('timeout', args.values.timeout as string | undefined, 100, 600_000)
  const json = wantsJson(args.values, io.stdout.isTTY)
  const thread = await fetchThread(url!, {
    env: io.env,
    ...(maxComments && { maxComments }),
    ...(deadlineMs && { deadlineMs }),
  })
  if (args.values['extract-refs-only']) {
    const refs = threadRefsOnly(thread)
    io.stdout.write(json ? `${JSON.stringify(refs, null, 2)}\n` : terminalSafe(`${refsToMarkdown(thread.refs)}\n`))
  } else io.stdout.write(json ? `${JSON.stringify(thread, null, 2)}\n` : terminalSafe(`${threadToMarkdown(thread)}\n`))
  return thread.error ? EXIT.failure : EXIT.ok
}

/** The implementation, loaded only when the command runs. */
export async function runRefs(args: ParsedCommandArgs, io: CliIo): Promise<number> {
  const urls = urlsFrom(args.positionals, 'refs')
  const urlConcurrency = parseIntFlag('concurrency', args.values.concurrency as string | undefined, 1, 16)
  const deadlineMs = parseIntFlag('timeout', args.values.timeout as string | undefined, 100, 600_000)
  const json = wantsJson(args.values, io.stdout.isTTY)
  const results = await extractRefsFromUrls(urls, {
    env: io.env,
    ...(urlConcurrency && { urlConcurrency }),
    ...(deadlineMs && { deadlineMs }),
  })
  if (json) io.stdout.write(`${JSON.stringify({ refs: results }, null, 2)}\n`)
  else {
    for (const r of results) {
      io.stdout.write(
        terminalSafe(
          `## ${r.title ?? r.url}\n${r.url}\n\n${r.error ? `_Could not read it: ${r.error.kind} — ${r.error.message}_` : refsToMarkdown(r.refs)}\n\n`,
        ),
      )
    }
  }
  return results.every((r) => r.error) ? EXIT.failure : EXIT.ok
}

/** The implementation, loaded only when the command runs. */
export async function runChain(args: ParsedCommandArgs, io: CliIo): Promise<number> {
  const seeds = urlsFrom(args.positionals, 'chain')
  const query = (args.values.query as string | undefined)?.trim()
  if (!query)
    throw new UsageError('--query is required: say what the chain is about, e.g. --query "memory leak on reconnect"')
  const maxDepth = parseIntFlag('depth', args.values.depth as string | undefined, 1, 5)
  const maxNodes = parseIntFlag('max-nodes', args.values['max-nodes'] as string | undefined, 1, 200)
  const deadlineMs = parseIntFlag('timeout', args.values.timeout as string | undefined, 100, 600_000)
  const json = wantsJson(args.values, io.stdout.isTTY)
  const chain = await followChain(seeds, {
    query,
    env: io.env,
    ...(maxDepth && { maxDepth }),
    ...(maxNodes && { maxNodes }),
    ...(deadlineMs && { deadlineMs }),
  })
  io.stdout.write(json ? `${JSON.stringify(chain, null, 2)}\n` : terminalSafe(`${chainToMarkdown(chain)}\n`))
  return EXIT.ok
}

/** The implementation, loaded only when the command runs. */
export async function runFetch(args: ParsedCommandArgs, io: CliIo): Promise<number> {
  const [url] = urlsFrom(args.positionals, 'fetch')
  const maxBytes = parseIntFlag('max-bytes', args.values['max-bytes'] as string | undefined, 1024, 100 * 1024 * 1024)
  const timeoutMs = parseIntFlag('timeout', args.values.timeout as string | undefined, 100, 600_000)
  const json = wantsJson(args.values, io.stdout.isTTY)
  try {
    const page = await fetchPage(url!, { env: io.env, ...(maxBytes && { maxBytes }), ...(timeoutMs && { timeoutMs }) })
    if (json) io.stdout.write(`${JSON.stringify(page, null, 2)}\n`)
    else {
      const meta = [page.byline, page.siteName, page.publishedAt?.slice(0, 10)].filter(Boolean).join(' · ')
      // A degraded page is plain text, not the article: say so and why, so nobody mistakes it for a bad extraction.
      const degraded = page.degraded ? `> Shown as plain text: ${page.degraded}.\n\n` : ''
      io.stdout.write(
        terminalSafe(
          `# ${page.title ?? page.finalUrl}\n\n${meta ? `_${meta}_ — ` : ''}<${page.finalUrl}>\n\n${degraded}${page.markdown.trim()}\n`,
        ),
      )
    }
    return EXIT.ok
  } catch (error) {
    if (!isFetchError(error)) throw error
    io.stderr.write(terminalSafe(`search-layer fetch: ${error.kind}: ${error.message}\n`))
    return error.kind === 'bad_url' ? EXIT.usage : EXIT.failure
  }
}

function wantsJson(values: ParsedCommandArgs['values'], isTTY: boolean | undefined): boolean {
  return outputFormat(values, isTTY) === 'json'
}

function urlsFrom(positionals: string[], command: string): string[] {
  if (positionals.length === 0)
    throw new UsageError(`give at least one URL, e.g. search-layer ${command} https://github.com/owner/repo/issues/123`)
  for (const url of positionals) {
    let parsed: URL
    try {
      parsed = new URL(url)
    } catch {
      throw new UsageError(`"${url}" is not a URL; give a full http(s) URL`)
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      throw new UsageError(`"${url}" is not an http(s) URL`)
  }
  return positionals
}
