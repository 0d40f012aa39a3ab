// Reads vitest JSON reports (default test-results.json, written by the root vitest.config.ts; `pnpm check` passes
// the unit and system runs' two) into one closing line, "N passed, N failed[, N skipped]", after naming every
// skipped test (its suite titles carry the reason, e.g. a corpus that is not present), so none is silent.
//
//   node scripts/test-summary.mjs [report.json ...]
import { existsSync, readFileSync } from 'node:fs'
import { relative } from 'node:path'

const SKIPPED = new Set(['skipped', 'pending', 'todo'])
const files = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['test-results.json']

let passed = 0
let failed = 0
const skipped = []
for (const file of files) {
  if (!existsSync(file)) {
    console.error(`${file} is missing: run the tests first (npx -y pnpm@10 test)`)
    process.exit(1)
  }
  const report = JSON.parse(readFileSync(file, 'utf8'))
  passed += report.numPassedTests ?? 0
  failed += report.numFailedTests ?? 0
  for (const suite of report.testResults ?? []) {
    for (const test of suite.assertionResults ?? []) {
      if (SKIPPED.has(test.status)) skipped.push(`${relative('.', suite.name)} › ${test.fullName}`)
    }
  }
}
if (skipped.length > 0) console.log(`skipped tests:\n${skipped.map((line) => `  - ${line}`).join('\n')}`)
console.log(`tests: ${passed} passed, ${failed} failed${skipped.length ? `, ${skipped.length} skipped` : ''}`)
process.exit(failed > 0 || passed === 0 ? 1 : 0)
