#!/usr/bin/env node
// Gives every declaration file in a package's dist/ a CommonJS twin: `x.d.ts` → `x.d.cts`, relative specifiers
// `./y.js` → `./y.cjs`. In a `"type": "module"` package TypeScript reads `.d.ts` as ESM, so a `require` condition
// needs `.d.cts` types beside tsup's `.cjs` output, or a CommonJS project type-checks against the wrong format
// (what `@arethetypeswrong/cli` calls "masquerading as ESM"). Run from a package directory after `tsc` has
// written the declarations: `node ../../scripts/cjs-types.mjs`.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

// Only relative specifiers ending in `.js`, in `from '…'`, `import('…')` and `declare module '…'` positions.
const RELATIVE_JS = /((?:\bfrom\s*|\bimport\s*\(\s*|\bmodule\s+)(["']))(\.\.?\/[^"'\n]*?)\.js(?=\2)/g

/** The CommonJS twin of one declaration file's text. */
export function toCjsDeclaration(text) {
  return text.replace(RELATIVE_JS, '$1$3.cjs')
}

function* declarationFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) yield* declarationFiles(path)
    else if (entry.name.endsWith('.d.ts')) yield path
  }
}

/** Writes the `.d.cts` twins under `distDir`; returns how many. */
export function writeCjsDeclarations(distDir) {
  let count = 0
  for (const file of declarationFiles(distDir)) {
    writeFileSync(file.replace(/\.d\.ts$/, '.d.cts'), toCjsDeclaration(readFileSync(file, 'utf8')))
    count++
  }
  return count
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const count = writeCjsDeclarations(join(process.cwd(), 'dist'))
  if (count === 0) {
    console.error('cjs-types: no .d.ts files under dist/ — run tsc -p tsconfig.build.json first')
    process.exit(1)
  }
}
