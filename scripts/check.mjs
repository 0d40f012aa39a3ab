#!/usr/bin/env node
// `pnpm check`: everything CI runs, in three lanes on a two-core machine (CPU per step is printed: about 560-580 s
// of CPU in all, so no order finishes in much under 290 s; runs take 320-345 s). The critical path is the build, the
// declaration pass and then the system tests (~225 CPU-s, the largest step; their longest files start first, see
// vitest.config.ts): they start as soon as the declarations are written, not when every other step is done. Starting
// them sooner was tried (only consumers/ waiting for the declarations): under the CPU bound it saved little and put
// seven test processes on two cores. Beside them: the source checks (lint, file budgets, import cycles, knip) and the unit
// tests, which need only the sources, then the web typecheck and the script tests; and the quick bench, which
// mostly waits on the emulator's real-latency mix, then the other Node majors' few end-to-end files (five, on two
// majors, one worker). A step may wait for a step of another lane (`after`).
//
// Each step's output is held and printed whole when it ends, with its time, so lanes never interleave lines.
// The first failing step stops the other lanes (their process groups are killed) and the run exits non-zero.
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
  'build',
].map((name) => `scripts/${name}.test.mjs`)
const UNIT_RESULTS = 'test-results-unit.json'
const SYSTEM_RESULTS = 'test-results-system.json'

const cores = availableParallelism()
const oneWorkerPerCore = `--maxWorkers=${cores}`

/** A step: a name for the log, the command (run through the shell from the repository root), steps it waits for. */
const step = (name, command, after = []) => ({ name, command, after })

// Redis and Chromium before anything else: a test of any lane may need them.
const PROVISION = step('provision', 'node scripts/provision.mjs')

const BUILD = 'build'
const DECLARATIONS = 'declarations + typecheck'

/** The lanes, in the order `--serial` runs their steps (each lane's `after` steps come earlier in that order). */
export const LANES = [
  [
    step(BUILD, 'node scripts/build.mjs'),
    step(DECLARATIONS, 'node scripts/build-types.mjs --check tsconfig.check.json'),
    step('system tests', `vitest run --project system --outputFile.json=${SYSTEM_RESULTS}`),
  ],
  [
    step('biome', 'biome check .'),
    step('function and file lengths', 'node scripts/function-length.mjs'),
    step('import cycles', 'node scripts/import-cycles.mjs'),
    step('knip', 'knip --no-progress'),
    // `pnpm test:unit` (one worker process runs many files, sharing their modules: vitest.config.ts), one worker a
    // core: alone it takes two a core, but here the system tests share the cores the whole time.
    step('unit tests', `pnpm run test:unit ${oneWorkerPerCore} --outputFile.json=${UNIT_RESULTS}`),
    // Against the packages' declarations, just written (apps/web/tsconfig.declarations.json).
    step('web typecheck', 'tsc -p apps/web/tsconfig.declarations.json', [DECLARATIONS]),
    step('script tests', `node --test ${SCRIPT_TESTS.join(' ')}`, [DECLARATIONS]),
  ],
  [
    // Its figures are reported, never asserted, so it can share the host with the tests.
    step('quick bench', 'pnpm --filter @search-layer/bench run bench --quick --no-write', [BUILD]),
    step('Node 22 and 24', 'node scripts/node-versions.mjs --quick --maxWorkers=1', [DECLARATIONS]),
  ],
]

const SUMMARY = step('summary', `node scripts/test-summary.mjs ${UNIT_RESULTS} ${SYSTEM_RESULTS}`)

// The repository's own tools (tsc, vitest, biome, knip) also when run as plain `node scripts/check.mjs`.
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

/** Each step's end, by name, for the steps of other lanes that wait for it. */
const ended = new Map()
const endOf = (name) => {
  if (!ended.has(name)) {
    let resolve
    ended.set(name, { promise: new Promise((r) => (resolve = r)), resolve })
  }
  return ended.get(name)
}

async function runLane(steps, times) {
  for (const s of steps) {
    await Promise.all(s.after.map((name) => endOf(name).promise))
    if (failed) break
    const result = await runStep(s)
    times.push(result)
    if (!result.ok && !failed) {
      failed = true
      stopAll()
    }
    endOf(s.name).resolve()
  }
  // A lane that stopped early still lets the others' waits end (they see `failed` and stop too).
  for (const s of steps) endOf(s.name).resolve()
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
  const serial = process.argv.includes('--serial') || cores < 2
  const started = performance.now()
  const times = []
  await runLane([PROVISION], times) // each lane stops before its first step when this failed
  if (serial) await runLane(LANES.flat(), times)
  else await Promise.all(LANES.map((lane) => runLane(lane, times)))
  await runLane([SUMMARY], times)
  const total = ((performance.now() - started) / 1000).toFixed(0)
  console.log(times.map(timeRow).join('\n'))
  const cpu = times.every((t) => t.cpu !== null) ? `, CPU ${times.reduce((sum, t) => sum + t.cpu, 0).toFixed(0)} s` : ''
  console.log(
    `check ${failed ? 'failed' : 'passed'} in ${total} s${cpu} (${serial ? 'one lane' : `${LANES.length} lanes`})`,
  )
  process.exit(failed ? 1 : 0)
}

function timeRow(t) {
  const cpu = t.cpu === null ? '' : `   CPU ${t.cpu.toFixed(1).padStart(7)} s`
  return `${t.ok ? '✓' : '✗'} ${t.name.padEnd(26)} ${t.seconds.toFixed(1).padStart(7)} s${cpu}`
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main()
