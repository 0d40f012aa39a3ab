import assert from 'node:assert/strict'
import { test } from 'node:test'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DEFAULT_FILES, QUICK_FILES, nodeBinary, parseArgs } from './node-versions.mjs'

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

/** An installer that writes a fake binary where npm would, and counts its calls. */
function fakeInstaller(content = 'node') {
  const calls = []
  const install = (prefix, spec) => {
    calls.push(spec)
    const bin = join(prefix, 'node_modules', `node-${process.platform}-${process.arch}`, 'bin')
    mkdirSync(bin, { recursive: true })
    writeFileSync(join(bin, 'node'), content)
  }
  return { calls, install }
}

/** A fresh cache directory, removed when the test ends. */
function tempCache(t) {
  const cache = mkdtempSync(join(tmpdir(), 'node-versions-'))
  t.after(() => rmSync(cache, { recursive: true, force: true }))
  return cache
}

test('a binary is installed once, into its major, with nothing left beside it', (t) => {
  const cache = tempCache(t)
  const { calls, install } = fakeInstaller()
  const bin = nodeBinary(24, { cache, install })
  assert.equal(bin, join(cache, '24', 'node_modules', `node-${process.platform}-${process.arch}`, 'bin', 'node'))
  assert.equal(nodeBinary(24, { cache, install }), bin)
  assert.deepEqual(calls, [`node-${process.platform}-${process.arch}@24`])
  assert.deepEqual(readdirSync(cache), ['24'])
})

test('what an interrupted install left is replaced; an install that finished meanwhile is kept', (t) => {
  const cache = tempCache(t)
  mkdirSync(join(cache, '22', 'node_modules'), { recursive: true }) // no binary: npm was stopped
  const bin = nodeBinary(22, { cache, install: fakeInstaller('fresh').install })
  assert.equal(readFileSync(bin, 'utf8'), 'fresh')
  // Another process renamed its install into place while this one was installing: its binary stays.
  const racing = (prefix, spec) => {
    fakeInstaller('second').install(prefix, spec)
    fakeInstaller('first').install(join(cache, '20'), spec)
  }
  const raced = nodeBinary(20, { cache, install: racing })
  assert.equal(readFileSync(raced, 'utf8'), 'first')
  assert.deepEqual(readdirSync(cache).sort(), ['20', '22'])
})
