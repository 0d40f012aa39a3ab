// The import-circle guard's own tests: it must find circles (type-only and dynamic ones too) and pass a tree without.
import assert from 'node:assert/strict'
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import { findCycles, importGraph, importedSpecifiers } from './import-cycles.mjs'

const SCRIPT = fileURLToPath(new URL('./import-cycles.mjs', import.meta.url))

function tree(files) {
  const dir = mkdtempSync(join(tmpdir(), 'import-cycles-'))
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text)
  return dir
}

const cyclesIn = (dir, names) => findCycles(importGraph(names.map((name) => join(dir, name)))).map((c) => c.circle)

describe('import cycles', () => {
  it('reads static, type-only, re-exported, dynamic and import-type specifiers', () => {
    const text = [
      "import { a } from './a.js'",
      "import type { B } from './b.js'",
      "export { c } from './c.js'",
      "export type * from './d.js'",
      "const e = () => import('./e.js')",
      "type F = import('./f.js').F",
      "const g = require('./g.js')",
    ].join('\n')
    assert.deepEqual(importedSpecifiers(text), ['./a.js', './b.js', './c.js', './d.js', './e.js', './f.js'])
  })

  it('finds a circle through type-only imports, naming the files in order', () => {
    const dir = tree({
      'a.ts': "import type { B } from './b.js'\nexport type A = B",
      'b.ts': "import { c } from './c.js'\nexport type B = string\nexport const b = c",
      'c.ts': "import type { A } from './a.js'\nexport const c: A = 'c'",
      'd.ts': "import { b } from './b.js'\nexport const d = b",
    })
    const cycles = cyclesIn(dir, ['a.ts', 'b.ts', 'c.ts', 'd.ts'])
    assert.equal(cycles.length, 1)
    assert.deepEqual(
      cycles[0].map((file) => basename(file)),
      ['a.ts', 'b.ts', 'c.ts', 'a.ts'],
    )
  })

  it('counts a lazy import() back as a circle, and a file importing itself', () => {
    const dir = tree({
      'definition.ts': "export const load = () => import('./client.js')",
      'client.ts': "import { load } from './definition.js'\nexport const client = load",
      'self.ts': "import { x } from './self.js'\nexport const x = 1",
    })
    const cycles = cyclesIn(dir, ['definition.ts', 'client.ts', 'self.ts'])
    assert.deepEqual(cycles.map((c) => c.map((file) => basename(file))).sort(), [
      ['client.ts', 'definition.ts', 'client.ts'],
      ['self.ts', 'self.ts'],
    ])
  })

  it('passes a layered tree', () => {
    const dir = tree({
      'a.ts': "import { b } from './b.js'\nimport { c } from './c.js'\nexport const a = b + c",
      'b.ts': "import { c } from './c.js'\nexport const b = c",
      'c.ts': 'export const c = 1',
    })
    assert.deepEqual(cyclesIn(dir, ['a.ts', 'b.ts', 'c.ts']), [])
  })

  it('exits non-zero and names the circle when run on a tree with one', () => {
    const dir = tree({ 'a.ts': "import './b.js'", 'b.ts': "import './a.js'" })
    const run = spawnSync(process.execPath, [SCRIPT, dir], { encoding: 'utf8' })
    assert.equal(run.status, 1)
    assert.match(run.stderr, /1 import circle/)
    assert.match(run.stderr, /a\.ts → .*b\.ts → .*a\.ts/)
    const clean = tree({ 'a.ts': "import './b.js'", 'b.ts': 'export {}' })
    assert.match(execFileSync(process.execPath, [SCRIPT, clean], { encoding: 'utf8' }), /no import circles/)
  })
})
