// The main job on a fresh machine: start the local provider emulator and run a real search through the
// built CLI against it. Usage: node scripts/demo.mjs ["query"] [more search flags]
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const root = new URL('..', import.meta.url).pathname
const cli = join(root, 'apps/cli/dist/cli.js')
const testkit = join(root, 'packages/testkit/dist/index.js')
if (!existsSync(cli) || !existsSync(testkit)) {
  console.error('demo: build first (npx -y pnpm@10 build)')
  process.exit(2)
}
const { startEmulator } = await import(testkit)
const emu = await startEmulator({ latencyMs: 120 })
const args = process.argv.slice(2)
const argv = args.length ? args : ['Bun vs Deno']
if (!argv.includes('--format') && !argv.includes('--json')) argv.push('--format', 'markdown')
console.error(
  `demo: emulator on ${emu.url} (Brave, Exa, Tavily and xAI wire formats); running: search-layer ${argv.map((a) => JSON.stringify(a)).join(' ')}\n`,
)
const env = {
  PATH: process.env.PATH,
  HOME: mkdtempSync(join(tmpdir(), 'sl-demo-')),
  // The emulator's LLM endpoint would only echo canned text; the rule-based synthesis is the honest demo.
  ...Object.fromEntries(Object.entries(emu.env).filter(([k]) => !k.startsWith('SEARCH_LAYER_LLM_'))),
  SEARCH_LAYER_RATE_LIMITS: 'off',
}
const child = spawn(process.execPath, [cli, 'providers'], { env, stdio: 'inherit' })
await new Promise((resolve) => child.on('exit', resolve))
console.log('')
const search = spawn(process.execPath, [cli, ...argv], { env, stdio: 'inherit' })
const code = await new Promise((resolve) => search.on('exit', resolve))
await emu.close()
process.exit(code ?? 1)
