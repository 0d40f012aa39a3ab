// Prints the top self-time functions of `.cpuprofile` files: node dist/profile-summary.js FILE… [--top N]
import { readFile } from 'node:fs/promises'
import { type CpuProfile, topSelfTime } from './_profile.js'

const args = process.argv.slice(2)
const topAt = args.indexOf('--top')
const top = topAt >= 0 ? Number(args[topAt + 1]) : 15
const files = args.filter((a, i) => a !== '--top' && i !== topAt + 1)
if (files.length === 0) {
  process.stderr.write('usage: node dist/profile-summary.js FILE.cpuprofile… [--top N]\n')
  process.exitCode = 2
}
for (const file of files) {
  const profile = JSON.parse(await readFile(file, 'utf8')) as CpuProfile
  process.stdout.write(`\n${file} (${((profile.endTime - profile.startTime) / 1e6).toFixed(1)} s)\n`)
  for (const f of topSelfTime(profile, top))
    process.stdout.write(
      `${f.selfPct.toFixed(1).padStart(5)}%  ${f.selfMs.toFixed(0).padStart(7)} ms  ${f.name}  ${f.location}\n`,
    )
}
