// Sums every package's vitest JSON report into one closing line: "N passed, N failed".
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

let passed = 0
let failed = 0
let skipped = 0
for (const group of ['packages', 'apps', 'bench']) {
  if (!existsSync(group)) continue
  for (const name of readdirSync(group)) {
    const file = join(group, name, 'test-results.json')
    if (!existsSync(file)) continue
    const report = JSON.parse(readFileSync(file, 'utf8'))
    passed += report.numPassedTests ?? 0
    failed += report.numFailedTests ?? 0
    skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0)
  }
}
console.log(`tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`)
process.exit(failed > 0 ? 1 : 0)
