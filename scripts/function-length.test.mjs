// The function-length rule's own tests: what counts as a function, how it is measured, and its flags.
import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { checkFileBudget, countSourceLines, measureFunctions, measureTree, parseArgs } from './function-length.mjs'

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
    assert.deepEqual(parseArgs(['--max', '120', '--max-file', '300', '--top', '3', 'apps/cli/src']), {
      max: 120,
      maxFile: 300,
      top: 3,
      dirs: ['apps/cli/src'],
    })
    assert.throws(() => parseArgs(['--max']), /--max takes a whole number of lines ≥ 1, got ""/)
    assert.throws(() => parseArgs(['--max', '0']), /--max takes a whole number of lines ≥ 1, got "0"/)
    assert.throws(() => parseArgs(['--long']), /unknown flag --long; use --max N/)
  })

  it('counts source lines: not blank lines or comments, every line of a multi-line token', () => {
    const text = [
      '// a comment', //
      '/**',
      ' * documentation',
      ' */',
      'export const a = 1 // trailing comment',
      '',
      'const t = `one',
      'two`',
      '   ',
      'const b = /* inline */ 2',
    ].join('\n')
    assert.equal(countSourceLines(text), 4)
    assert.equal(countSourceLines('export const View = () => <div>\n  hi\n</div>\n', 'view.tsx'), 3)
  })

  it('holds files to the budget: unlisted files over it, listed files past their ceiling or no longer over', () => {
    const files = [
      { file: 'a.ts', lines: 450 },
      { file: 'b.ts', lines: 520 },
      { file: 'c.ts', lines: 390 },
      { file: 'd.ts', lines: 480 },
    ]
    assert.deepEqual(checkFileBudget(files, 400, { 'b.ts': 500, 'c.ts': 410, 'd.ts': 480, 'gone.ts': 600 }), [
      'a.ts: 450 source lines, over 400: divide it',
      'b.ts: 520 source lines, past its ceiling of 500 in scripts/file-budget.json',
      'c.ts: 390 source lines, within 400 now: remove it from scripts/file-budget.json',
      'gone.ts: listed in scripts/file-budget.json but not found: remove it',
    ])
    assert.deepEqual(checkFileBudget(files.slice(3), 400, { 'd.ts': 480 }), [])
  })
})
