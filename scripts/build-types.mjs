#!/usr/bin/env node
// Writes every library package's declarations in one TypeScript program: `src/x.ts` → `dist/x.d.ts`, each with its
// CommonJS twin `dist/x.d.cts` (scripts/cjs-types.mjs). One `tsc` per package read and checked core (and every
// other dependency's declarations), lib.d.ts and @types/node again, 27 times: about 150 of the build's 300
// CPU-seconds. One program checks each file once. Workspace imports resolve to the sources (the
// "@search-layer/source" condition, as in typecheck), so the pass needs no earlier build and no package order; the
// declarations still import each other by package name (`@search-layer/core`), as before.
//
// Run after tsup (tsup's `clean` empties dist/): `node scripts/build-types.mjs`, or `… packages/core apps/server` for
// some packages only. `--check tsconfig.check.json` makes the program that config's (tests and scripts too): the
// typecheck and the declarations in one pass, as `pnpm check` runs it.
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import ts from 'typescript'
import { toCjsDeclaration } from './cjs-types.mjs'

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '..')
const GROUPS = ['packages', 'apps']

/** Package directories (relative to the root) that publish declarations: those with a tsconfig.build.json. */
function declarationPackages(root = ROOT) {
  return GROUPS.flatMap((group) =>
    existsSync(join(root, group))
      ? readdirSync(join(root, group))
          .map((name) => `${group}/${name}`)
          .filter((dir) => existsSync(join(root, dir, 'tsconfig.build.json')))
      : [],
  ).sort()
}

function parsedConfig(dir) {
  const path = join(ROOT, dir, 'tsconfig.build.json')
  const file = ts.readConfigFile(path, ts.sys.readFile)
  if (file.error) throw new Error(ts.formatDiagnostic(file.error, formatHost))
  return ts.parseJsonConfigFileContent(file.config, ts.sys, join(ROOT, dir), undefined, path)
}

const formatHost = {
  getCanonicalFileName: (name) => name,
  getCurrentDirectory: () => ROOT,
  getNewLine: () => '\n',
}

/** `<outDir>/packages/core/src/http/index.d.ts` → `packages/core/dist/http/index.d.ts`. */
function distPath(outDir, fileName, dirs) {
  const rel = relative(outDir, fileName).split(sep).join('/')
  const dir = dirs.find((d) => rel.startsWith(`${d}/src/`))
  return dir && join(ROOT, dir, 'dist', rel.slice(`${dir}/src/`.length))
}

function removeDeclarations(dir) {
  if (!existsSync(dir)) return
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) removeDeclarations(path)
    else if (/\.d\.c?ts$/.test(entry.name)) rmSync(path)
  }
}

function checkConfig(path) {
  const file = ts.readConfigFile(path, ts.sys.readFile)
  if (file.error) throw new Error(ts.formatDiagnostic(file.error, formatHost))
  return ts.parseJsonConfigFileContent(file.config, ts.sys, dirname(path), undefined, path)
}

/**
 * The program: the selected packages' sources, or with `--check <tsconfig>` that config's whole program (tests,
 * scripts and all), so `check` type-checks the house and writes the declarations in one pass instead of two.
 */
function createProgram(configs, check) {
  const base = check ? checkConfig(resolve(ROOT, check)) : configs[0]
  const options = {
    ...configs[0].options,
    ...(check ? base.options : {}),
    // One program over every package: sources, not dist/, for workspace imports.
    customConditions: ['@search-layer/source'],
    noEmit: false,
    declaration: true,
    emitDeclarationOnly: true,
    rootDir: ROOT,
    outDir: OUT_DIR,
  }
  const rootNames = check ? base.fileNames : configs.flatMap((c) => c.fileNames)
  return ts.createProgram({ rootNames, options })
}

const OUT_DIR = join(ROOT, '.types-out')

/** Whether a package's exports have a `require` condition, whose `.cjs` files need `.d.cts` twins beside them. */
function loadsByRequire(dir) {
  const manifest = JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8'))
  return JSON.stringify(manifest.exports ?? {}).includes('"require"')
}

/**
 * Emits the declarations of the published sources only (not tests or scripts a `--check` program holds too): a
 * package's tsconfig.build.json names them, all of `src` for a library, the public entry's few files for the CLI.
 */
function emitDeclarations(program, dirs, configs) {
  const published = new Set(configs.flatMap((c) => c.fileNames.map((f) => resolve(f))))
  const twinned = new Set(dirs.filter(loadsByRequire))
  let written = 0
  const diagnostics = []
  const writeFile = (fileName, text) => {
    const target = distPath(OUT_DIR, fileName, dirs)
    if (!target) return
    mkdirSync(dirname(target), { recursive: true })
    writeFileSync(target, text)
    const dir = dirs.find((d) => target.startsWith(join(ROOT, d, 'dist')))
    if (twinned.has(dir)) writeFileSync(target.replace(/\.d\.ts$/, '.d.cts'), toCjsDeclaration(text))
    written++
  }
  for (const file of program.getSourceFiles()) {
    if (!published.has(resolve(file.fileName))) continue
    diagnostics.push(...program.emit(file, writeFile, undefined, true).diagnostics)
  }
  return { written, diagnostics }
}

function parseArgs(argv) {
  const at = argv.indexOf('--check')
  if (at === -1) return { selected: argv, check: undefined }
  if (!argv[at + 1]) throw new Error('build-types: --check needs a tsconfig path, e.g. --check tsconfig.check.json')
  return { selected: argv.filter((_, i) => i !== at && i !== at + 1), check: argv[at + 1] }
}

function main(argv) {
  const { selected, check } = parseArgs(argv)
  const all = declarationPackages()
  const unknown = selected.filter((dir) => !all.includes(dir))
  if (unknown.length > 0) {
    console.error(`build-types: ${unknown.join(', ')} has no tsconfig.build.json; packages with one: ${all.join(', ')}`)
    return 1
  }
  const dirs = selected.length > 0 ? selected : all
  const configs = dirs.map(parsedConfig)
  const program = createProgram(configs, check)
  for (const dir of dirs) removeDeclarations(join(ROOT, dir, 'dist'))
  const emit = emitDeclarations(program, dirs, configs)
  const diagnostics = [...ts.getPreEmitDiagnostics(program), ...emit.diagnostics]
  if (diagnostics.length > 0) {
    console.error(ts.formatDiagnosticsWithColorAndContext(diagnostics, formatHost))
    return 1
  }
  if (emit.written === 0) {
    console.error('build-types: no declarations written')
    return 1
  }
  return 0
}

if (import.meta.url === `file://${process.argv[1]}`) process.exit(main(process.argv.slice(2)))
