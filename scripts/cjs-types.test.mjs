import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { toCjsDeclaration, writeCjsDeclarations } from './cjs-types.mjs'

test('relative .js specifiers become .cjs in every import and export position', () => {
  const input = [
    "export { a } from './a.js';",
    'export type { B } from "../b/index.js";',
    "import { c } from './c.js';",
    "type D = import('./d.js').D;",
    "export * from './e.js'",
  ].join('\n')
  assert.equal(
    toCjsDeclaration(input),
    [
      "export { a } from './a.cjs';",
      'export type { B } from "../b/index.cjs";',
      "import { c } from './c.cjs';",
      "type D = import('./d.cjs').D;",
      "export * from './e.cjs'",
    ].join('\n'),
  )
})

test('package specifiers, non-.js files and strings in code stay as they are', () => {
  const input = [
    "import { z } from 'zod';",
    "export { x } from '@search-layer/core/http';",
    "import data from './data.json';",
    "declare const path = './worker.js';",
  ].join('\n')
  assert.equal(toCjsDeclaration(input), input)
})

test('writes a .d.cts twin beside every .d.ts, in subfolders too', () => {
  const dist = mkdtempSync(join(tmpdir(), 'cjs-types-'))
  try {
    mkdirSync(join(dist, 'http'))
    writeFileSync(join(dist, 'index.d.ts'), "export * from './http/index.js'\n")
    writeFileSync(join(dist, 'http', 'index.d.ts'), 'export declare const a: 1\n')
    assert.equal(writeCjsDeclarations(dist), 2)
    assert.equal(readFileSync(join(dist, 'index.d.cts'), 'utf8'), "export * from './http/index.cjs'\n")
    assert.equal(readFileSync(join(dist, 'http', 'index.d.cts'), 'utf8'), 'export declare const a: 1\n')
  } finally {
    rmSync(dist, { recursive: true, force: true })
  }
})
