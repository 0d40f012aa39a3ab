import assert from 'node:assert/strict'
import { test } from 'node:test'
import { DEFAULT_FILES, QUICK_FILES, parseArgs } from './node-versions.mjs'
import { existsSync } from 'node:fs'

test('22 and 24 by default; the rest goes to vitest', () => {
  assert.deepEqual(parseArgs(['-t', 'search']), { majors: [22, 24], quick: false, rest: ['-t', 'search'] })
})

test('--majors takes a comma list and is removed from the vitest arguments', () => {
  assert.deepEqual(parseArgs(['a.test.ts', '--majors', '24, 22']), {
    majors: [24, 22],
    quick: false,
    rest: ['a.test.ts'],
  })
})

test('--quick is taken out of the vitest arguments', () => {
  assert.deepEqual(parseArgs(['--quick', '--majors', '24']), { majors: [24], quick: true, rest: [] })
})

test('a bad --majors names the flag, the value and what is allowed', () => {
  for (const value of ['', 'x', '18', '22.5', undefined]) {
    const argv = value === undefined ? ['--majors'] : ['--majors', value]
    assert.throws(() => parseArgs(argv), /--majors takes Node majors ≥ 20 separated by commas/)
  }
})

test('every default file exists', () => {
  for (const file of [...DEFAULT_FILES, ...QUICK_FILES])
    assert.ok(existsSync(new URL(`../${file}`, import.meta.url)), file)
})
