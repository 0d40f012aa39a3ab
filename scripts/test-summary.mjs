// Sums every package's vitest JSON report into one closing line, "N passed, N failed[, N skipped]", after naming
// every skipped test (its suite titles carry the reason, e.g. a corpus that is not present), so none is silent.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'

const SKIPPED = new Set(['skipped', 'pending', 'todo'])

let passed = 0
let failed = 0
const skipped = []
for (const group of ['packages', 'apps', 'bench']) {
  if (!existsSync(group)) continue
  for (const name of readdirSync(group)) {
    const dir = join(group, name)
    const file = join(dir, 'test-results.json')
    if (!existsSync(file)) continue
    const report = JSON.parse(readFileSync(file, 'utf8'))
    passed += report.numPassedTests ?? 0
    failed += report.numFailedTests ?? 0
    for (const suite of report.testResults ?? []) {
      for (const test of suite.assertionResults ?? []) {
        if (SKIPPED.has(test.status)) skipped.push(`${dir} › ${relative(dir, suite.name)} › ${test.fullName}`)
      }
    }
  }
}
if (skipped.length > 0) console.log(`skipped tests:\n${skipped.map((line) => `  - ${line}`).join('\n')}`)
console.log(`tests: ${passed} passed, ${failed} failed${skipped.length ? `, ${skipped.length} skipped` : ''}`)
process.exit(failed > 0 ? 1 : 0)
