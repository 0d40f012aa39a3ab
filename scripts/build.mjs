#!/usr/bin/env node
// Builds every package's JavaScript: each package's own tsup.config.ts through tsup's API, one package after
// another in this one process; then the web app by `vite build` (a child process), which imports the libraries
// through their built exports; then the CLI and the server, which copy the web app's build. The declarations come
// after, from `node scripts/build-types.mjs` (`pnpm build` runs both).
//
// Why not a process per package (turbo running `pnpm run build` in each, as before): on a two-core machine those
// processes were most of the work. Measured on a quiet host from a fresh clone, 31 packages: turbo 47 s wall and
// 68 CPU-s; pnpm's own start-up alone was ~0.8 CPU-s a package and tsup's ~0.8 more, while the esbuild work of a
// library package is ~0.1 s. In one process tsup, esbuild's service and the configs' imports load once.
//
//   node scripts/build.mjs                 every package
//   node scripts/build.mjs packages/core   some packages only (directories relative to the root)
//
// tsup resolves entries and writes dist/ relative to the working directory, so the process moves into each
// package's directory for its build; esbuild's service, started once, is told the same directory by a tsup plugin.
import { spawn } from 'node:child_process'
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const GROUPS = ['packages', 'apps', 'examples']
// Their tsup.config.ts copies apps/web/dist into their own dist/web, so they follow the web app.
const NEEDS_WEB = new Set(['apps/cli', 'apps/server'])

/** Every directory (relative to the root) whose package.json has a build script, with the tool it names. */
export function buildTargets(root = ROOT) {
  const dirs = [
    'bench',
    ...GROUPS.flatMap((group) =>
      existsSync(join(root, group)) ? readdirSync(join(root, group)).map((name) => `${group}/${name}`) : [],
    ),
  ]
  return dirs.sort().flatMap((dir) => {
    const manifest = join(root, dir, 'package.json')
    if (!existsSync(manifest)) return []
    const script = JSON.parse(readFileSync(manifest, 'utf8')).scripts?.build
    if (script === undefined) return []
    if (script === 'tsup' || script === 'vite build') return [{ dir, tool: script.split(' ')[0] }]
    throw new Error(
      `${dir}: build script "${script}" is neither "tsup" nor "vite build"; scripts/build.mjs runs only those`,
    )
  })
}

/**
 * A tsup plugin that points esbuild at the package's directory: esbuild's service takes the directory the process
 * had when it started as the default for every build after.
 */
const workingDirectory = (dir) => ({
  name: 'working-directory',
  esbuildOptions(options) {
    options.absWorkingDir = dir
  },
})

// Options given to tsup's build() replace the config's own of the same name, so a config with tsup `plugins` would
// lose them to the one above: refused rather than built differently from `tsup` run in the package.
function refuseOwnPlugins(dir) {
  const config = join(ROOT, dir, 'tsup.config.ts')
  if (/(^|[^\w])plugins\s*:/.test(readFileSync(config, 'utf8')))
    throw new Error(`${dir}/tsup.config.ts sets tsup plugins; scripts/build.mjs cannot add its own beside them`)
}

async function buildWithTsup(build, dir) {
  refuseOwnPlugins(dir)
  const abs = join(ROOT, dir)
  process.chdir(abs)
  try {
    await build({ silent: true, plugins: [workingDirectory(abs)] })
  } finally {
    process.chdir(ROOT)
  }
}

/** `vite build` in the web app's directory, in a child process (vite reads its config relative to it). */
function buildWithVite(dir) {
  const abs = join(ROOT, dir)
  const manifest = createRequire(join(abs, 'package.json')).resolve('vite/package.json')
  const vite = join(dirname(manifest), JSON.parse(readFileSync(manifest, 'utf8')).bin.vite)
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: abs, stdio: 'inherit' })
    child.on('error', reject)
    child.on('close', (code, signal) =>
      code === 0 ? resolvePromise() : reject(new Error(`${dir}: vite build exited ${signal ?? code}`)),
    )
  })
}

const elapsed = (since) => `${((performance.now() - since) / 1000).toFixed(1)} s`

async function main(args) {
  const all = buildTargets()
  const wanted = args.map((arg) => relative(ROOT, resolve(arg)))
  const unknown = wanted.filter((dir) => !all.some((t) => t.dir === dir))
  if (unknown.length > 0) {
    console.error(`build: no package with a build script at ${unknown.join(', ')}`)
    process.exit(2)
  }
  const targets = wanted.length > 0 ? all.filter((t) => wanted.includes(t.dir)) : all
  const started = performance.now()
  const { build } = await import(createRequire(join(ROOT, 'package.json')).resolve('tsup'))
  const tsup = targets.filter((t) => t.tool === 'tsup')
  const timed = async (dir, work) => {
    const since = performance.now()
    await work(dir)
    console.log(`built ${dir} (${elapsed(since)})`)
  }
  const withTsup = (dir) => buildWithTsup(build, dir)
  for (const { dir } of tsup.filter((t) => !NEEDS_WEB.has(t.dir))) await timed(dir, withTsup)
  // The web app imports workspace packages through their built exports, so it follows them.
  for (const { dir } of targets.filter((t) => t.tool === 'vite')) await timed(dir, buildWithVite)
  for (const { dir } of tsup.filter((t) => NEEDS_WEB.has(t.dir))) await timed(dir, withTsup)
  console.log(`build: ${targets.length} packages in ${elapsed(started)}`)
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch((error) => {
    console.error(`build failed: ${error instanceof Error ? error.message : error}`)
    process.exit(1)
  })
}
