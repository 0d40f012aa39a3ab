import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { BenchUsageError, type ScenarioId, USAGE, parseBenchArgs, selectedScenarios } from './_args.js'
import { type ScenarioContext, createContext } from './_context.js'
import { describeGauges, gaugeHost } from './_host-gauge.js'
import { type BenchReport, type VariantResult, formatTable, machine, writeReport } from './_report.js'
import { askScenario } from './scenarios/ask.js'
import { cliScenario } from './scenarios/cli.js'
import { extractScenario } from './scenarios/extract.js'
import { faultsScenario } from './scenarios/faults.js'
import { intentScenario } from './scenarios/intent.js'
import { latencyMixScenario } from './scenarios/latency-mix.js'
import { mergeScenario } from './scenarios/merge.js'
import { passagesScenario } from './scenarios/passages.js'
import { pipelineScenario } from './scenarios/pipeline.js'
import { readScenario } from './scenarios/read.js'
import { scansScenario } from './scenarios/scans.js'
import { serverScenario } from './scenarios/server.js'
import { soakScenario } from './scenarios/soak.js'
import { streamScenario } from './scenarios/stream.js'
import { threadScenario } from './scenarios/thread.js'

const RUNNERS: Record<ScenarioId, (ctx: ScenarioContext) => Promise<VariantResult[]>> = {
  pipeline: (ctx) => pipelineScenario(ctx),
  stream: streamScenario,
  cli: cliScenario,
  faults: faultsScenario,
  'latency-mix': latencyMixScenario,
  merge: mergeScenario,
  intent: intentScenario,
  thread: threadScenario,
  scans: scansScenario,
  extract: extractScenario,
  passages: passagesScenario,
  read: readScenario,
  ask: askScenario,
  server: serverScenario,
  soak: soakScenario,
}

async function main(argv: readonly string[]): Promise<number> {
  const defaultOut = fileURLToPath(new URL('../results', import.meta.url))
  let args: ReturnType<typeof parseBenchArgs>
  try {
    args = parseBenchArgs(argv, defaultOut)
  } catch (error) {
    if (error instanceof BenchUsageError) {
      process.stderr.write(`bench: ${error.message}\n`)
      return 2
    }
    throw error
  }
  if (args.help) {
    process.stdout.write(USAGE)
    return 0
  }
  const started = performance.now()
  const hostAtStart = await gaugeHost()
  const { ctx, cleanup } = createContext({ quick: args.quick, soakMinutes: args.soakMinutes || 2 })
  const results: VariantResult[] = []
  const failures: BenchReport['failures'] = []
  try {
    for (const id of selectedScenarios(args)) {
      process.stderr.write(`▶ ${id}\n`)
      const t0 = performance.now()
      try {
        results.push(...(await RUNNERS[id](ctx)))
      } catch (error) {
        const message = error instanceof Error ? (error.stack ?? error.message) : String(error)
        failures.push({ scenario: id, message: message.split('\n')[0]! })
        process.stderr.write(`✗ ${id} failed: ${message}\n`)
      }
      process.stderr.write(`  (${((performance.now() - t0) / 1000).toFixed(1)} s)\n`)
    }
  } finally {
    await cleanup()
  }
  const host = { start: hostAtStart, end: await gaugeHost() }
  const report: BenchReport = {
    date: new Date().toISOString(),
    quick: args.quick,
    ...machine(),
    units: { latency: 'ms', rss: 'MB', throughput: 'per second' },
    durationMs: Math.round(performance.now() - started),
    host,
    results,
    failures,
  }
  process.stdout.write(`\n${formatTable(results)}\n\n${describeGauges(host)}\n`)
  if (args.outDir) {
    const { json, md } = await writeReport(args.outDir, report)
    process.stdout.write(`\nwrote ${json} and ${md}\n`)
  }
  if (failures.length)
    process.stderr.write(`\n${failures.length} scenario(s) failed: ${failures.map((f) => f.scenario).join(', ')}\n`)
  return failures.length ? 1 : 0
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code
  },
  (error: unknown) => {
    process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
    process.exitCode = 1
  },
)
