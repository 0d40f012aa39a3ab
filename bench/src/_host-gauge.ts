import { spawn } from 'node:child_process'
import { summarize } from './_stats.js'

/**
 * How fast the machine is at one moment, on two fixed tasks. A shared 2-core host runs the same build 20–30 %
 * slower in some minutes than in others (the cache-hit row's server CPU went 0.13 → 0.17 ms between two runs of
 * one build), which is more than most changes a run is meant to show. A run gauges the host at its start and end:
 * compare two runs' rows only as far as their gauges agree.
 */
export interface HostGauge {
  /** Wall time of `node -e 0`, spawn to exit (p50): what every CLI row pays once per run. */
  nodeStartMs: number
  /** A fixed JavaScript workload (JSON, sorting, regular expressions) in a fresh process (p50 of its rounds). */
  cpuWorkMs: number
}

/** How many times `gaugeHost` measures each task; a bench run keeps the defaults, so its gauges compare. */
interface GaugeOptions {
  /** `node -e 0` starts timed. Default 9. */
  nodeStarts?: number
  /** Rounds of the fixed workload. Default 7. */
  workRounds?: number
}

// Built from constants, so every run does the same work; a fresh process, so the bench's own heap and compiled
// code do not change it between the start and the end of a run.
const workload = (rounds: number) => `
const rows = Array.from({ length: 20000 }, (_, i) => ({ id: i, title: 'result ' + (i * 7919 % 20000), url: 'https://example.org/' + i + '/page?utm_source=x', score: (i * 104729 % 1000) / 1000 }))
const times = []
for (let round = 0; round < ${rounds}; round++) {
  const started = performance.now()
  const text = JSON.stringify(rows)
  const parsed = JSON.parse(text)
  parsed.sort((a, b) => b.score - a.score || a.id - b.id)
  let kept = 0
  for (const row of parsed) if (/\\/(\\d+)\\/page$/.test(row.url.replace(/[?&]utm_[^&]*/g, ''))) kept++
  if (kept !== rows.length) throw new Error('workload changed')
  times.push(performance.now() - started)
}
process.stdout.write(JSON.stringify(times))
`

function run(args: readonly string[]): Promise<{ ms: number; stdout: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    // PATH only, as the CLI rows run: NODE_OPTIONS or NODE_EXTRA_CA_CERTS in the caller's environment would add to
    // every start (CI's shell has the latter: `node -e 0` 60 ms there against 22 without it).
    const child = spawn(process.execPath, args, {
      env: { PATH: process.env.PATH ?? '' },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    let stdout = ''
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk
    })
    child.on('error', reject)
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`node ${args[0]} … exited ${code}`))
      else resolve({ ms: performance.now() - started, stdout })
    })
  })
}

/** Gauges the host now (about a second with the defaults). */
export async function gaugeHost({ nodeStarts = 9, workRounds = 7 }: GaugeOptions = {}): Promise<HostGauge> {
  const starts: number[] = []
  for (let i = 0; i < nodeStarts; i++) starts.push((await run(['-e', '0'])).ms)
  const work = JSON.parse((await run(['-e', workload(workRounds)])).stdout) as number[]
  return { nodeStartMs: summarize(starts).p50, cpuWorkMs: summarize(work).p50 }
}

/** One line for the report: the gauges at the run's start and end. */
export function describeGauges({ start, end }: { start: HostGauge; end: HostGauge }): string {
  const one = (g: HostGauge) => `\`node -e 0\` ${g.nodeStartMs} ms, fixed CPU workload ${g.cpuWorkMs} ms`
  return `Host gauge (p50; lower is a faster host): at the start ${one(start)}; at the end ${one(end)}.`
}
