import '../one-shot.js'
import { type AskBudget, type AskStep, ask, renderTurn } from '@search-layer/ask'
import { createSearchLayer } from '@search-layer/engine'
import type { ParsedCommandArgs } from '../args.js'
import { engineOptionsFromEnv } from '../engine-options.js'
import { parseIntFlag } from '../flags.js'
import { type CliIo, EXIT, UsageError } from '../io.js'
import { loadProviders } from '../providers.js'
import { terminalSafe } from '../terminal-text.js'
import { outputFormat } from './output-format.js'

/** The budget flags, checked here so a bad one names the flag. */
function budgetFlags(values: Record<string, unknown>): Partial<AskBudget> {
  const rounds = parseIntFlag('rounds', values.rounds as string | undefined, 1, 12)
  const toolCalls = parseIntFlag('tool-calls', values['tool-calls'] as string | undefined, 0, 40)
  const timeMs = parseIntFlag('timeout', values.timeout as string | undefined, 1_000, 600_000)
  return {
    ...(rounds !== undefined && { rounds }),
    ...(toolCalls !== undefined && { toolCalls }),
    ...(timeMs !== undefined && { timeMs }),
  }
}

const stepLine = (step: AskStep): string =>
  `  ${step.n}. ${step.kind === 'model' ? 'model' : step.tool}: ${step.summary.replace(/\s+/g, ' ').slice(0, 160)}\n`

/** The implementation, loaded only when the command runs. */
export async function runAsk(args: ParsedCommandArgs, io: CliIo): Promise<number> {
  const v = args.values
  const question = args.positionals.join(' ').trim()
  if (!question) throw new UsageError('give a question, e.g. search-layer ask "When did Node.js ship a global fetch?"')
  const budget = budgetFlags(v)
  const providers = await loadProviders(io.env)
  const engineOptions = engineOptionsFromEnv(io.env, { cache: true, providers, oneShot: true })
  const layer = createSearchLayer(engineOptions)
  const json = outputFormat(v, io.stdout.isTTY) === 'json'
  let result: Awaited<ReturnType<typeof ask>>
  try {
    result = await ask(
      {
        question,
        budget,
        ...(v['no-model'] ? { model: false } : {}),
        ...(v.continue !== undefined && { conversationId: String(v.continue) }),
      },
      {
        env: io.env,
        layer,
        ...(v.transcript !== undefined && { transcriptPath: String(v.transcript) }),
        ...(io.stderr.isTTY && { onStep: (step: AskStep) => io.stderr.write(terminalSafe(stepLine(step))) }),
      },
    )
  } finally {
    await engineOptions.settled()
  }
  if (json) io.stdout.write(`${JSON.stringify(result, null, 2)}\n`)
  else {
    io.stdout.write(
      terminalSafe(`${renderTurn(result)}\n\nConversation ${result.id} · transcript ${result.transcript}\n`),
    )
    io.stdout.write(`Follow up: search-layer ask --continue ${result.id} "<question>"\n`)
  }
  return EXIT.ok
}
