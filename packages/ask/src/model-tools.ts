import { HttpUrlSchema } from '@search-layer/core'
import { untrustedFrame } from '@search-layer/core/text'
import type { Passage } from '@search-layer/passages'
import { tool } from 'ai'
import { z } from 'zod'
import { messageOf, readPage, readThread, searchAndRead } from './reading.js'
import type { AskRun } from './run-state.js'

/** `web_search` as the ask offers it: one query, answered with results and the passages of the pages read. */
const AskSearchInputSchema = z.strictObject({
  query: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(500, 'must be at most 500 characters')
    .describe('What to search for; use other words than before when an angle is missing.'),
})

/** `web_fetch` and `fetch_thread` as the ask offers them: the page or thread to read. */
const AskReadInputSchema = z.strictObject({
  url: HttpUrlSchema.describe('The page or thread to read (http or https): a result URL or one in the question.'),
})

const MAX_PASSAGE_CHARS = 1_500

const passageBlock = (p: Passage): string =>
  `[${p.id}] ${p.title}${p.heading ? ` › ${p.heading}` : ''}\n${p.url}\n${p.text.slice(0, MAX_PASSAGE_CHARS)}`

/** Passages as the model reads them: id, page, heading and text, inside an untrusted-content frame. */
export function framedPassages(passages: readonly Passage[], source: string): string {
  if (passages.length === 0) return 'No passage of the pages read matched the question.'
  const frame = untrustedFrame(source)
  const body = passages.map(passageBlock).join('\n\n')
  return `${frame.open}${body}${frame.close}`
}

/**
 * One page or thread read: our count outside, the address it ended at (a redirect chooses it) and its passages inside
 * one untrusted-content frame.
 */
function readText(url: string, passages: readonly Passage[], source: string): string {
  const frame = untrustedFrame(source)
  const shown = passages.length > 0 ? passages.map(passageBlock).join('\n\n') : 'No passage of it matched the question.'
  return `Read 1 ${source.startsWith('the thread') ? 'thread' : 'page'}: ${passages.length} passage(s).\n${frame.open}Address: ${url}\n\n${shown}${frame.close}`
}

/** Results and passages of one search in one untrusted-content frame: titles and snippets are third-party text too. */
function searchText(list: string, read: number, passages: readonly Passage[]): string {
  const frame = untrustedFrame('the search results and the pages read')
  const body = passages.map(passageBlock).join('\n\n')
  const shown = passages.length > 0 ? body : 'No passage of the pages read matched the question.'
  return `${frame.open}Results:\n${list}\n\nPassages of the ${read} page(s) read:\n\n${shown}${frame.close}`
}

/** What a tool call produced: the model's text, the step's summary, its passages and (a search) its result count. */
interface ToolOutput {
  text: string
  summary: string
  passages: Passage[]
  results?: number
}

/**
 * Runs one tool call under the tool-call budget, announcing its start and recording its end as a step; failures
 * reach the model as tool errors.
 */
async function budgeted(
  run: AskRun,
  name: string,
  { args, toolCallId }: { args: unknown; toolCallId: string },
  execute: () => Promise<ToolOutput>,
): Promise<string> {
  const started = Date.now()
  const call = run.startTool(name, args, toolCallId)
  const step = { kind: 'tool' as const, tool: name, args, call }
  if (run.toolCalls >= run.budget.toolCalls) {
    run.record({ ...step, summary: 'refused: tool-call budget spent', ok: false, ms: 0 })
    return 'The tool-call budget of this question is spent: answer from the passages you have.'
  }
  run.toolCalls++
  try {
    const out = await execute()
    const passages = out.passages.map((p) => p.id)
    const results = out.results !== undefined ? { results: out.results } : {}
    run.record({ ...step, ...results, summary: out.summary, passages, ok: true, ms: Date.now() - started })
    return out.text
  } catch (error) {
    const reason = messageOf(error)
    run.record({ ...step, summary: `failed: ${reason}`, ok: false, ms: Date.now() - started })
    // The reason may quote a site's or an engine's body: it reaches the model framed, like any third-party text.
    const frame = untrustedFrame('the error message (it may quote the site or the search engine)')
    throw new Error(`${name} failed.\n${frame.open}${reason}${frame.close}`)
  }
}

function resultLines(results: { title: string; url: string; snippet: string; publishedAt: string | null }[]): string {
  return results
    .map(
      (r, i) =>
        `${i + 1}. ${r.title}\n   ${r.url}${r.publishedAt ? ` · ${r.publishedAt.slice(0, 10)}` : ''}\n   ${r.snippet.slice(0, 300)}`,
    )
    .join('\n')
}

/** The three tools the model gets, sharing the run's passage registry and budgets. */
export function modelTools(run: AskRun) {
  return {
    web_search: tool({
      description:
        'Search the web; the top pages are read and their passages that bear on the question come back with ids ' +
        '([p3]) you can cite. Returns the results (title, URL, date, snippet) and those passages. Snippets are short ' +
        'and not enough for analysis: cite passages, not snippets.',
      inputSchema: AskSearchInputSchema,
      execute: ({ query }, { abortSignal, toolCallId }) =>
        budgeted(run, 'web_search', { args: { query }, toolCallId }, async () => {
          run.searched.push(query)
          const found = await searchAndRead(run.reading, query, run.toolSignal(abortSignal))
          run.noteSearch(found)
          const passages = run.registry.add(found.passages)
          const read = found.reads.filter((r) => r.ok).length
          const list =
            found.results.length > 0 ? resultLines(found.results) : `No results for ${JSON.stringify(query)}.`
          return {
            text: searchText(list, read, passages),
            summary: `${found.results.length} results, ${read}/${found.reads.length} pages read, ${passages.length} passages`,
            passages,
            results: found.results.length,
          }
        }),
    }),
    web_fetch: tool({
      description:
        'Read one page (a URL from the results or the question); returns its passages that bear on the question, ' +
        'with ids you can cite. Use it when the passages you have do not settle the question.',
      inputSchema: AskReadInputSchema,
      execute: ({ url }, { abortSignal, toolCallId }) =>
        budgeted(run, 'web_fetch', { args: { url }, toolCallId }, async () => {
          const page = await readPage(run.reading, url, run.toolSignal(abortSignal))
          const passages = run.registry.add(page.passages)
          return {
            text: readText(page.url, passages, 'the fetched page'),
            summary: `read ${page.url}: ${passages.length} passages`,
            passages,
          }
        }),
    }),
    fetch_thread: tool({
      description:
        'Read a whole discussion (GitHub issue or pull request, Hacker News, Reddit, V2EX thread) with its comments; ' +
        'returns its passages that bear on the question, with ids you can cite.',
      inputSchema: AskReadInputSchema,
      execute: ({ url }, { abortSignal, toolCallId }) =>
        budgeted(run, 'fetch_thread', { args: { url }, toolCallId }, async () => {
          const thread = await readThread(run.reading, url, run.toolSignal(abortSignal))
          const passages = run.registry.add(thread.passages)
          return {
            text: readText(thread.url, passages, 'the thread: its posts and comments'),
            summary: `read ${thread.url} (${thread.comments} comments): ${passages.length} passages`,
            passages,
          }
        }),
    }),
  }
}

export type ModelTools = ReturnType<typeof modelTools>
