// Reads the vitest JSON report of the whole run (test-results.json, written by the root vitest.config.ts) into one
// closing line, "N passed, N failed[, N skipped]", after naming every skipped test (its suite titles carry the
// reason, e.g. a corpus that is not present), so none is silent.
import { existsSync, readFileSync } from 'node:fs'
import { relative } from 'node:path'

const SKIPPED = new Set(['skipped', 'pending', 'todo'])
const FILE = 'test-results.json'

if (!existsSync(FILE)) {
  console.error(`${FILE} is missing: run the tests first (npx -y pnpm@10 test)`)
  process.exit(1)
}
const report = JSON.parse(readFileSync(FILE, 'utf8'))
const passed = report.numPassedTests ?? 0
const failed = report.numFailedTests ?? 0
const skipped = []
for (const suite of report.testResults ?? []) {
  for (const test of suite.assertionResults ?? []) {
    if (SKIPPED.has(test.status)) skipped.push(`${relative('.', suite.name)} › ${test.fullName}`)
  }
}
if (skipped.length > 0) console.log(`skipped tests:\n${skipped.map((line) => `  - ${line}`).join('\n')}`)
console.log(`tests: ${passed} passed, ${failed} failed${skipped.length ? `, ${skipped.length} skipped` : ''}`)
process.exit(failed > 0 || passed === 0 ? 1 : 0)
