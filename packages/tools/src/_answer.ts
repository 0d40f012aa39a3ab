import { ConfigError } from '@search-layer/core'
import type { AskResult } from '@search-layer/ask/schema'
import { untrustedFrame } from './_untrusted.js'
import { fitText } from './_text.js'
import type { ToolResult } from './results.js'

type AskModule = typeof import('@search-layer/ask')

// The ask module brings the AI SDK with it: loaded by the first `answer` call, so a process that only searches
// never loads it.
let askModule: Promise<AskModule> | undefined

/** `@search-layer/ask`, loaded once; a `ConfigError` saying what to install when it cannot be. */
export function loadAsk(): Promise<AskModule> {
  askModule ??= import('@search-layer/ask').catch((error: unknown) => {
    askModule = undefined
    throw new ConfigError('answer needs @search-layer/ask: install it beside @search-layer/tools.', { cause: error })
  })
  return askModule
}

/** The first line of an answer's text: ours, outside the frame. */
function summaryLine(result: AskResult): string {
  const c = result.counts
  const how = result.mode === 'model' ? 'answered by the model' : 'extractive answer (no model)'
  if (result.abstained) return `No answer: nothing read supports one (${how}). What was searched is inside.`
  return (
    `Answer (${how}): ${c.supported} supported, ${c.unverified} unverified, ${c.uncited} uncited sentence(s); ` +
    `confidence ${result.confidence.level}.`
  )
}

/**
 * An ask's result for the model: our count and the conversation id outside, and the marked answer, its steps and
 * sources (model output and quotes of web pages, so untrusted) inside one frame, within `maxChars`. `data` is the
 * result as `AskResultSchema` describes it.
 */
export function answerResult(result: AskResult, render: (result: AskResult) => string, maxChars: number): ToolResult {
  const head = summaryLine(result)
  const tail = `Conversation id: ${result.id} (pass it as conversation_id to ask a follow-up).`
  const frame = untrustedFrame('the answer, its steps and the sources it cites (model output and quotes of web pages)')
  const body = fitText(render(result), Math.max(200, maxChars - head.length - tail.length - frame.length - 2))
  return { content: `${head}\n${frame.open}${body.text}${frame.close}\n${tail}`, data: result }
}
