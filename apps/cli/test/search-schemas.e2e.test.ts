import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { useEmulator } from '@search-layer/testkit/vitest'
import { describe, expect, it } from 'vitest'
import { emulatorEnv, runBin } from './_run.js'

const emu = useEmulator()

// A preload for the built bin that counts the zod schemas a process builds, by the source module that built each:
// zod gives every schema instance its `_zod` internals through Object.defineProperty, and the bundle's source map
// (node:module's SourceMap) turns the first frame outside zod into a file of ours.
const PROBE = `
const { SourceMap } = require('node:module')
const { readFileSync, writeSync } = require('node:fs')
const define = Object.defineProperty
const maps = new Map()
const built = {}
const mapOf = (file) => {
  if (!maps.has(file)) {
    let map = null
    try { map = new SourceMap(JSON.parse(readFileSync(file + '.map', 'utf8'))) } catch {}
    maps.set(file, map)
  }
  return maps.get(file)
}
function builder() {
  const limit = Error.stackTraceLimit
  Error.stackTraceLimit = 50
  const stack = new Error().stack
  Error.stackTraceLimit = limit
  for (const line of stack.split('\\n').slice(3)) {
    const at = /((?:file:\\/\\/)?\\/[^():]+):(\\d+):(\\d+)\\)?$/.exec(line)
    const map = at && mapOf(at[1].replace('file://', ''))
    const source = map?.findEntry(Number(at[2]) - 1, Number(at[3]) - 1)?.originalSource
    if (source && !/[\\\\/]zod[\\\\/]/.test(source)) return source.replace(/^.*?[\\\\/](packages|apps)[\\\\/]/, '$1/')
  }
  return '(unknown)'
}
Object.defineProperty = function (target, key, descriptor) {
  if (key === '_zod') {
    const who = builder()
    built[who] = (built[who] ?? 0) + 1
  }
  return define(target, key, descriptor)
}
process.on('exit', () => writeSync(2, '\\nzod schemas built: ' + JSON.stringify(built) + '\\n'))
`

/** Modules whose schemas a plain search parses with: the request it is asked, each provider's request and answer. */
const PARSED_BY_A_SEARCH = [
  'packages/core/src/schemas.ts', // ProviderRequestSchema, with the freshness, intent and mode schemas
  'packages/core/src/query-operators.ts', // the filters parsed from a query's operators
  'packages/core/src/provider-definition.ts', // the layer's own provider ids for `sources`
  'packages/engine/src/request.ts', // the layer's request schema
  'packages/evidence/src/options.ts', // `read`, part of the request schema
  // Built at load though this search reads no file (a fresh HOME): most searches read what the last one learned.
  'packages/engine/src/key-state-store.ts',
  'packages/providers-brave/src/schema.ts',
  'packages/providers-exa/src/schema.ts',
  'packages/providers-tavily/src/schema.ts',
  'packages/providers-grok/src/schema.ts',
]

describe('what a plain search builds (built bin)', () => {
  it('builds only the zod schemas it parses with: no response contract, error, replay, model or request-doc schemas', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sl-cli-schemas-'))
    const probe = join(dir, 'zod-probe.cjs')
    writeFileSync(probe, PROBE)
    const r = await runBin(
      ['Bun vs Deno', '--mode', 'deep', '--intent', 'auto', '--num', '10', '--no-cache', '--json'],
      emulatorEnv(emu.env, {
        HOME: mkdtempSync(join(tmpdir(), 'sl-cli-home-')),
        NODE_OPTIONS: `--require=${probe}`,
      }),
    )
    expect(r.code, r.stderr).toBe(0)
    expect(Object.keys(JSON.parse(r.stdout).providers)).toEqual(
      expect.arrayContaining(['brave', 'exa', 'tavily', 'grok']),
    )
    const built = JSON.parse(/zod schemas built: (.*)/.exec(r.stderr)![1]!) as Record<string, number>
    // The probe sees what is built: the layer's request schema at least.
    expect(built['packages/engine/src/request.ts']).toBeGreaterThan(0)
    // Anything else is built for a path the search did not take: it belongs behind lazySchema or in a module of its own.
    expect(Object.keys(built).filter((m) => !PARSED_BY_A_SEARCH.includes(m))).toEqual([])
  }, 30_000)

  it('leaves out the modules that only hold schemas a search never parses with (tsup.config.ts: sideEffects false)', () => {
    const map = JSON.parse(readFileSync(fileURLToPath(new URL('../dist/search-run.cjs.map', import.meta.url)), 'utf8'))
    const sources = (map as { sources: string[] }).sources
    expect(sources.some((s) => s.endsWith('/packages/core/src/schemas.ts'))).toBe(true)
    for (const schemasOnly of [
      '/packages/core/src/response-schemas.ts',
      '/packages/core/src/url-schema.ts',
      '/packages/core/src/config-file-schema.ts',
      '/packages/engine/src/search-request-schema.ts',
      '/src/request-schema.ts',
    ])
      expect(sources.filter((s) => s.endsWith(schemasOnly))).toEqual([])
  })
})
