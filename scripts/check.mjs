#!/usr/bin/env node
// `pnpm check`: everything CI runs. The build, the declaration pass and the typechecks are mostly single-threaded
// (esbuild's bundles, then one tsc program at a time), and the unit tests need only the sources: so the unit tests
// and the source checks (lint, file budgets, import cycles, knip) run beside the build, on the core it leaves idle.
// The system tests follow both lanes, beside the quick bench, which mostly waits on the emulator's real-latency mix,
// and then the other Node majors' few end-to-end files (five, on two majors; one worker, so the system tests never
// share the host with more than one other test process).
//
// Each step's output is held and printed whole when it ends, with its time, so two lanes never interleave lines.
// The first failing step stops the other lane (its process group is killed) and the run exits non-zero.
//
//   node scripts/check.mjs [--serial]     (--serial: one lane, for a machine with one core or a clearer log)
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { delimiter, join } from 'node:path'
import { pathToFileURL } from 'node:url'

const SCRIPT_TESTS = [
  'provider-table',
  'function-length',
  'import-cycles',
  'cjs-types',
  'node-versions',
  'third-party-notices',
].map((name) => `scripts/${name}.test.mjs`)
const UNIT_RESULTS = 'test-results-unit.json'
const SYSTEM_RESULTS = 'test-results-system.json'

/** A step: a name for the log and the command, run through the shell from the repository root. */
const step = (name, command) => ({ name, command })

// Redis and Chromium before anything else: a test of either lane may need them.
const PROVISION = step('provision', 'node scripts/provision.mjs')

export const BUILD_LANE = [
  step('build', 'turbo run build --output-logs=errors-only'),
  step('declarations + typecheck', 'node scripts/build-types.mjs --check tsconfig.check.json'),
  step('web typecheck', 'tsc -p apps/web/tsconfig.json'),
  step('script tests', `node --test ${SCRIPT_TESTS.join(' ')}`),
]

export const SOURCE_LANE = [
  step('biome', 'biome check .'),
  step('function and file lengths', 'node scripts/function-length.mjs'),
  step('import cycles', 'node scripts/import-cycles.mjs'),
  step('knip', 'knip --no-progress'),
  // `pnpm test:unit` (one worker process runs many files, sharing their modules: vitest.config.ts).
  step('unit tests', `pnpm run test:unit --outputFile.json=${UNIT_RESULTS}`),
]

export const SYSTEM_LANE = [step('system tests', `vitest run --project system --outputFile.json=${SYSTEM_RESULTS}`)]
// Mostly waiting on the emulator's real-latency mix (~50 of its ~150 s), the rest light: its figures are reported,
// never asserted, so it can share the host with the system tests.
export const BENCH_LANE = [
  step('quick bench', 'pnpm --filter @search-layer/bench run bench --quick --no-write'),
  step('Node 22 and 24', 'node scripts/node-versions.mjs --quick --maxWorkers=1'),
]

const SUMMARY = step('summary', `node scripts/test-summary.mjs ${UNIT_RESULTS} ${SYSTEM_RESULTS}`)

// The repository's own tools (turbo, tsc, vitest, biome, knip) also when run as plain `node scripts/check.mjs`.
const env = { ...process.env, PATH: [join(process.cwd(), 'node_modules/.bin'), process.env.PATH].join(delimiter) }
const running = new Set()
let failed = false

/**
 * CPU seconds (user + system) of every child this process has reaped, from /proc (Linux; elsewhere null): read as a
 * step's process is reaped, the growth since the last reading is that step's whole tree, workers and all. On two
 * cores the CPU, not the wall time, says what a lane costs the other.
 */
function reapedChildrenCpu() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8')
    // After the command name, which may hold spaces: state is field 3, cutime and cstime are fields 16 and 17.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[13]) + Number(fields[14])) / 100 // USER_HZ, 100 on every Linux ABI
  } catch {
    return null
  }
}
let cpuReadAt = reapedChildrenCpu()

function runStep({ name, command }) {
  return new Promise((resolve) => {
    const started = performance.now()
    console.log(`▶ ${name}`)
    const child = spawn(command, { shell: true, detached: true, env, stdio: ['ignore', 'pipe', 'pipe'] })
    running.add(child)
    const chunks = []
    child.stdout.on('data', (chunk) => chunks.push(chunk))
    child.stderr.on('data', (chunk) => chunks.push(chunk))
    let cpu = null
    child.on('exit', () => {
      const now = reapedChildrenCpu()
      if (now !== null && cpuReadAt !== null) cpu = now - cpuReadAt
      cpuReadAt = now
    })
    child.on('close', (code, signal) => {
      running.delete(child)
      const seconds = ((performance.now() - started) / 1000).toFixed(1)
      const ok = code === 0
      if (!(failed && signal)) process.stdout.write(Buffer.concat(chunks))
      const cpuText = cpu === null ? '' : `, CPU ${cpu.toFixed(1)} s`
      console.log(`${ok ? '✓' : '✗'} ${name} (${seconds} s${cpuText})${ok ? '' : ` exited ${signal ?? code}`}\n`)
      resolve({ name, ok, seconds: Number(seconds), cpu })
    })
  })
}

async function runLane(steps, times) {
  for (const s of steps) {
    if (failed) return
    const result = await runStep(s)
    times.push(result)
    if (!result.ok && !failed) {
      failed = true
      stopAll()
    }
  }
}

/** Each step runs in its own process group, so its children (vitest's workers, Chromium, redis) stop with it. */
function stopAll() {
  for (const child of running) {
    try {
      process.kill(-child.pid, 'SIGTERM')
    } catch {}
  }
}

async function main() {
  for (const signal of ['SIGINT', 'SIGTERM'])
    process.on(signal, () => {
      stopAll()
      process.exit(130)
    })
  const serial = process.argv.includes('--serial') || availableParallelism() < 2
  const started = performance.now()
  const times = []
  await runLane([PROVISION], times) // each lane stops before its first step when this failed
  if (serial) await runLane([...BUILD_LANE, ...SOURCE_LANE, ...SYSTEM_LANE, ...BENCH_LANE], times)
  else {
    await Promise.all([runLane(BUILD_LANE, times), runLane(SOURCE_LANE, times)])
    await Promise.all([runLane(SYSTEM_LANE, times), runLane(BENCH_LANE, times)])
  }
  await runLane([SUMMARY], times)
  const total = ((performance.now() - started) / 1000).toFixed(0)
  console.log(times.map(timeRow).join('\n'))
  const cpu = times.every((t) => t.cpu !== null) ? `, CPU ${times.reduce((sum, t) => sum + t.cpu, 0).toFixed(0)} s` : ''
  console.log(`check ${failed ? 'failed' : 'passed'} in ${total} s${cpu} (${serial ? 'one lane' : 'two lanes'})`)
  process.exit(failed ? 1 : 0)
}

function timeRow(t) {
  const cpu = t.cpu === null ? '' : `   CPU ${t.cpu.toFixed(1).padStart(7)} s`
  return `${t.ok ? '✓' : '✗'} ${t.name.padEnd(26)} ${t.seconds.toFixed(1).padStart(7)} s${cpu}`
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main()
