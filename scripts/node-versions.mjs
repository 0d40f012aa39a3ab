#!/usr/bin/env node
// Runs end-to-end tests again on other Node majors (default 22 and 24: what users run; the machines run 20).
// Node's official binaries are on the npm registry as `node-<platform>-<arch>@<major>`, so each is installed
// like any package, once, under node_modules/.cache/node-versions/, then vitest itself runs on that binary: the
// tests' child processes (`process.execPath`: the built CLI, the MCP stdio server) run on it too.
//
//   node scripts/node-versions.mjs [--majors 22,24] [--quick] [vitest args…]
//   node scripts/node-versions.mjs --binaries [--majors 22,24]   # install only; print each binary's path (the bench)
//
// `--quick` (what `pnpm check` runs) takes QUICK_FILES instead of DEFAULT_FILES: the files whose paths differ
// between Node majors, so each extra major costs about a minute rather than several.
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs'
import { join } from 'node:path'

const ROOT = new URL('..', import.meta.url).pathname
const CACHE = join(ROOT, 'node_modules/.cache/node-versions')
const VITEST = join(ROOT, 'node_modules/vitest/vitest.mjs')

/** The end-to-end files run on every other major: the built CLI, the server's HTTP API and MCP, the stdio MCP server, and
 * every package loaded by require() and import. */
export const DEFAULT_FILES = [
  'apps/cli/test/search.e2e.test.ts',
  'apps/server/test/server.e2e.test.ts',
  'apps/server/test/mcp.e2e.test.ts',
  'packages/mcp/test/mcp.e2e.test.ts',
  'consumers/test/load-formats.test.ts',
]

/**
 * The files `pnpm check` runs on every other major: what depends on the Node version — a built bin's start-up
 * and its V8 code cache (one per V8), the bundled HTTP stack in a fresh process, a stdio child and the extraction
 * worker threads behind web_fetch (both failed a first Node 24 run), the server booted over real HTTP with MCP,
 * and `require()` of ESM-built packages (require(esm) differs between majors). The rest of DEFAULT_FILES is plain
 * JavaScript the version does not change.
 */
export const QUICK_FILES = [
  'apps/cli/test/code-cache.e2e.test.ts',
  'apps/cli/src/undici-http.test.ts',
  'apps/server/test/mcp.e2e.test.ts',
  'packages/mcp/test/mcp.e2e.test.ts',
  'consumers/test/load-formats.test.ts',
]

/** `--majors 22,24`, `--quick` and the rest of the arguments, for vitest. */
export function parseArgs(argv) {
  const quick = argv.includes('--quick')
  const args = argv.filter((a) => a !== '--quick')
  const at = args.indexOf('--majors')
  if (at === -1) return { majors: [22, 24], quick, rest: args }
  const value = args[at + 1] ?? ''
  const majors = value.split(',').map((m) => Number(m.trim()))
  if (majors.length === 0 || majors.some((m) => !Number.isInteger(m) || m < 20))
    throw new Error(`--majors takes Node majors ≥ 20 separated by commas (for example 22,24), not "${value}"`)
  return { majors, quick, rest: [...args.slice(0, at), ...args.slice(at + 2)] }
}

/** The path of Node `major`'s binary, installed from the npm registry on first use. */
export function nodeBinary(major, { cache = CACHE, install = npmInstall } = {}) {
  const name = `node-${process.platform}-${process.arch}`
  const prefix = join(cache, String(major))
  const bin = join(prefix, 'node_modules', name, 'bin', 'node')
  if (existsSync(bin)) return bin
  // Installed into a directory of its own, then renamed into place whole: a process that finds `bin` finds it
  // complete, and two processes installing at once (packed-clients' AI SDK 7 case and check's Node 22/24 step, in
  // different lanes) never write into one directory.
  mkdirSync(cache, { recursive: true })
  const staging = mkdtempSync(join(cache, `${major}.installing-`))
  try {
    install(staging, `${name}@${major}`)
    // What an interrupted install left (no binary) gives way; an install that finished meanwhile is kept.
    if (!existsSync(bin)) rmSync(prefix, { recursive: true, force: true })
    try {
      renameSync(staging, prefix)
    } catch (error) {
      if (!existsSync(bin)) throw error
    }
  } finally {
    rmSync(staging, { recursive: true, force: true })
  }
  return bin
}

function npmInstall(prefix, spec) {
  execFileSync(
    'npm',
    ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', '--loglevel=error', spec],
    // npm's own lines on stderr: stdout may be read by a program (--binaries).
    { stdio: ['ignore', process.stderr, 'inherit'] },
  )
}

function main() {
  let args
  try {
    args = parseArgs(process.argv.slice(2))
  } catch (error) {
    console.error(`node-versions: ${error.message}`)
    process.exit(2)
  }
  if (args.rest.includes('--binaries')) {
    for (const major of args.majors) console.log(nodeBinary(major))
    return
  }
  const files = args.rest.some((a) => !a.startsWith('-')) ? [] : args.quick ? QUICK_FILES : DEFAULT_FILES
  for (const major of args.majors) {
    const bin = nodeBinary(major)
    const version = execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim()
    console.log(`node-versions: ${version}`)
    const run = spawnSync(bin, [VITEST, 'run', ...files, ...args.rest, '--reporter=dot'], {
      cwd: ROOT,
      stdio: 'inherit',
    })
    if (run.status !== 0) {
      console.error(`node-versions: tests failed on Node ${version}`)
      process.exit(run.status ?? 1)
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) main()
