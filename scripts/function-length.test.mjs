// The function-length rule's own tests: what counts as a function, how it is measured, and its flags.
import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { measureFunctions, measureTree, parseArgs } from './function-length.mjs'

const lines = (n) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i}`).join('\n')

describe('function length', () => {
  it('measures declarations, arrows, methods and nested functions by their line span', () => {
    const text = [
      'export function outer() {', // 1
      lines(3),
      '  const inner = (x: number) => {', // 5
      '    return x', //
      '  }', // 7
      '  return inner', //
      '}', // 9
      'class Pool {', //
      '  run() {', // 11
      '    return 1', //
      '  }', // 13
      '}',
      'const handlers = { get: function () { return 2 } }', // 15
    ].join('\n')
    const found = measureFunctions(text)
    assert.deepEqual(
      found.map((f) => [f.name, f.line, f.lines]),
      [
        ['outer', 1, 9],
        ['inner', 5, 3],
        ['run', 11, 3],
        ['get', 15, 1],
      ],
    )
  })

  it('reads TSX components', () => {
    const found = measureFunctions('export function View() {\n  return <div>\n    hi\n  </div>\n}\n', 'view.tsx')
    assert.deepEqual(found, [{ name: 'View', line: 1, lines: 5 }])
  })

  it('skips tests and type-only files, and sorts the tree longest first', () => {
    const root = mkdtempSync(join(tmpdir(), 'fn-length-'))
    const src = join(root, 'packages', 'demo', 'src')
    mkdirSync(src, { recursive: true })
    writeFileSync(
      join(src, 'a.ts'),
      `export function short() {\n  return 1\n}\nexport function long() {\n${lines(20)}\n}\n`,
    )
    writeFileSync(join(src, 'a.test.ts'), `function huge() {\n${lines(400)}\n}\n`)
    writeFileSync(join(src, 'a.test-d.ts'), `function huge() {\n${lines(400)}\n}\n`)
    const all = measureTree(root, [src])
    assert.deepEqual(
      all.map((f) => [f.name, f.lines, f.file]),
      [
        ['long', 22, join('packages', 'demo', 'src', 'a.ts')],
        ['short', 3, join('packages', 'demo', 'src', 'a.ts')],
      ],
    )
  })

  it('takes --max and --top, and names the flag and value it cannot use', () => {
    assert.deepEqual(parseArgs(['--max', '120', '--top', '3', 'apps/cli/src']), {
      max: 120,
      top: 3,
      dirs: ['apps/cli/src'],
    })
    assert.throws(() => parseArgs(['--max']), /--max takes a whole number of lines ≥ 1, got ""/)
    assert.throws(() => parseArgs(['--max', '0']), /--max takes a whole number of lines ≥ 1, got "0"/)
    assert.throws(() => parseArgs(['--long']), /unknown flag --long; use --max N/)
  })
})
