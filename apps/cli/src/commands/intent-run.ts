import { type IntentClassification, classifyIntent } from '@search-layer/intent'
import { runPerQuery } from './per-query.js'
import type { ParsedCommandArgs } from '../args.js'
import type { CliIo } from '../io.js'

/** The implementation, loaded only when the command runs. */
export async function runIntent(args: ParsedCommandArgs, io: CliIo): Promise<number> {
  return runPerQuery(args, io, {
    example: 'search-layer intent "what is WebTransport"',
    answer: (query) => ({ query, ...classifyIntent(query) }),
    describe,
  })
}

function describe(query: string, c: IntentClassification): string {
  const w = c.weights
  const signals = c.signals.length
    ? c.signals.map((s) => `"${s.term}" → ${s.intent} (${s.lang})`).join(', ')
    : 'none (default)'
  return [
    `${c.intent}  (confidence ${c.confidence.toFixed(2)}${c.uncertain ? `, uncertain: ${c.uncertainty}` : ''})  for "${query}"`,
    `  mode ${c.mode}, freshness ${c.freshness ?? 'any'}, weights keyword ${w.keyword} · freshness ${w.freshness} · authority ${w.authority}`,
    `  signals: ${signals}`,
    ...(c.model ? [`  model: ${modelLine(c.model)}`] : []),
  ].join('\n')
}

/** What the learned model said and weighed, and whether its answer was taken. */
function modelLine(m: NonNullable<IntentClassification['model']>): string {
  const weighed = m.features.map((f) => `${f.feature} +${f.weight}`).join(', ')
  return `${m.intent} (p ${m.probability.toFixed(2)}, ${m.decided ? 'decided' : 'not used'}); weighed ${weighed || 'nothing'}`
}
