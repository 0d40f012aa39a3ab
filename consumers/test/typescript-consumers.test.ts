import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { CONSUMERS_DIR, NEEDS_OPTIONAL_PEER, ROOT, publishedPackages } from './_published'

const run = promisify(execFile)
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc')
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

// The MCP SDK's own CommonJS declarations import an ESM-only type without `resolution-mode` (TS1541 under
// node16 with skipLibCheck off): an error in that package's files, not in ours, reported to every node16 user of it.
const THIRD_PARTY_ERRORS = [/@modelcontextprotocol\/sdk\/dist\/cjs\/.*error TS1541:/]

/** tsc's error lines that are not known third-party ones. */
function ownErrors(output: string): string[] {
  return output
    .split('\n')
    .filter((line) => line.includes('error TS'))
    .filter((line) => !THIRD_PARTY_ERRORS.some((known) => known.test(line)))
}

/** A project of `format` checked by tsc with `module` = `moduleKind`, no skipLibCheck; returns what it printed. */
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
  // tsc still writes the output when it reports errors; the errors are asserted, then the output is run.
  const compiled = await run(process.execPath, [TSC, '-p', dir], { cwd: dir, encoding: 'utf8' }).catch(
    (error: { stdout?: string }) => ({ stdout: error.stdout ?? String(error) }),
  )
  expect(ownErrors(compiled.stdout)).toEqual([])
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
