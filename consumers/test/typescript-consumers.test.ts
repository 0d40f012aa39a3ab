import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import ts from 'typescript'
import { afterAll, describe, expect, it } from 'vitest'
import { CONSUMERS_DIR, NEEDS_OPTIONAL_PEER, ROOT, publishedPackages } from './_published'

const run = promisify(execFile)
const specifiers = publishedPackages()
  .flatMap((p) => p.specifiers)
  .filter((s) => !NEEDS_OPTIONAL_PEER.has(s))

// The projects live inside this package, so `@search-layer/*` resolves through its node_modules as in a user's
// project; each is removed after the run.
const made: string[] = []
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true })
})

/** Source that loads every subpath and prints how many exports each has, written for `format`. */
function consumerSource(format: 'cjs' | 'esm'): string {
  const lines = specifiers.map((spec, i) =>
    format === 'cjs'
      ? `import m${i} = require(${JSON.stringify(spec)})`
      : `import * as m${i} from ${JSON.stringify(spec)}`,
  )
  const counts = specifiers.map((spec, i) => `${JSON.stringify(spec)}: Object.keys(m${i}).length`).join(',\n  ')
  return `${lines.join('\n')}\n\nconst counts: Record<string, number> = {\n  ${counts},\n}\nconsole.log(JSON.stringify(counts))\n`
}

const inNodeModules = (file: string) => file.split(/[\\/]/).includes('node_modules')

/**
 * What `tsc -p <dir>` reports with skipLibCheck off, for the files that are ours: the project's own and the
 * published declarations (workspace links, so outside node_modules once resolved), every one checked in full. The
 * third-party declarations they use are checked as far as ours use them, not file by file: checking the whole of
 * the MCP SDK, zod, TypeScript's lib files and @types/node was 95 % of each program's 11-15 s of checking (a
 * --generateTrace), and their own errors (the MCP SDK's CommonJS declarations import an ESM-only type without
 * `resolution-mode`, TS1541 under node16) are not ours to fix. None of ours augments or declares a global or another
 * package's module, the only way our declarations could put an error in a third-party file. Then the emit.
 * In the vitest worker: ~2 s to build each program and ~2 s to check, against 13-17 s for a `tsc -p` process.
 */
function typeCheckOwnFilesAndEmit(dir: string): string[] {
  const configFile = join(dir, 'tsconfig.json')
  const { config } = ts.readConfigFile(configFile, ts.sys.readFile)
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, dir, undefined, configFile)
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options })
  const ours = program.getSourceFiles().filter((file) => !inNodeModules(file.fileName))
  const diagnostics = [
    ...parsed.errors,
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...program.getSyntacticDiagnostics(),
    ...ours.flatMap((file) => program.getSemanticDiagnostics(file)),
    // Only the project's own files: emitting every file asks the checker for all of them, which is the whole cost.
    ...parsed.fileNames.flatMap((file) => program.emit(program.getSourceFile(file)).diagnostics),
  ]
  const host = { getCanonicalFileName: (f: string) => f, getCurrentDirectory: () => dir, getNewLine: () => '\n' }
  return diagnostics
    .filter((d) => d.category === ts.DiagnosticCategory.Error)
    .map((d) => ts.formatDiagnostic(d, host).trim())
}

/** A project of `format` checked with `module` = `moduleKind`, no skipLibCheck, then run; returns what it printed. */
async function typeCheckAndRun(
  format: 'cjs' | 'esm',
  moduleKind: 'node16' | 'nodenext',
): Promise<Record<string, number>> {
  const dir = mkdtempSync(join(CONSUMERS_DIR, `.consumer-${format}-${moduleKind}-`))
  made.push(dir)
  const type = format === 'cjs' ? 'commonjs' : 'module'
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ private: true, type }))
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        module: moduleKind,
        moduleResolution: moduleKind,
        target: 'es2022',
        strict: true,
        skipLibCheck: false,
        types: ['node'],
        typeRoots: [join(ROOT, 'node_modules/@types')],
        outDir: 'out',
      },
      files: ['index.ts'],
    }),
  )
  writeFileSync(join(dir, 'index.ts'), consumerSource(format))
  expect(typeCheckOwnFilesAndEmit(dir)).toEqual([])
  const { stdout } = await run(process.execPath, [join(dir, 'out/index.js')], { cwd: dir, encoding: 'utf8' })
  return JSON.parse(stdout) as Record<string, number>
}

describe('TypeScript projects type-check against the published types and run', () => {
  // CommonJS under node16 is the strict case (no require() of ESM at all); ESM under nodenext the current one.
  it.each([
    ['cjs', 'node16'],
    ['esm', 'nodenext'],
  ] as const)('%s with module %s', { timeout: 300_000 }, async (format, moduleKind) => {
    const counts = await typeCheckAndRun(format, moduleKind)
    expect(Object.keys(counts).sort()).toEqual([...specifiers].sort())
    for (const spec of specifiers) expect(counts[spec], spec).toBeGreaterThan(0)
  })
})
