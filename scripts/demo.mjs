// The main job on a fresh machine: start the local provider emulator and run a real search through the
// built CLI against it. Usage: node scripts/demo.mjs ["query"] [more search flags]
// With --web [--port N]: serve the web app (search-layer serve) against the emulator and print its URL; Ctrl-C stops.
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
const env = {
  PATH: process.env.PATH,
  HOME: mkdtempSync(join(tmpdir(), 'sl-demo-')),
  // The emulator's LLM endpoint would only echo canned text; the rule-based synthesis is the honest demo.
  ...Object.fromEntries(Object.entries(emu.env).filter(([k]) => !k.startsWith('SEARCH_LAYER_LLM_'))),
  SEARCH_LAYER_RATE_LIMITS: 'off',
}

if (args.includes('--web')) {
  // Engines answer at different speeds, so the page shows results streaming in as each one answers.
  for (const [service, ms] of Object.entries({ brave: 150, exa: 300, tavily: 900, grok: 600 })) emu.latency(service, ms)
  const portFlag = args.indexOf('--port')
  const port = portFlag >= 0 ? args[portFlag + 1] : '8787'
  const server = spawn(process.execPath, [cli, 'serve', '--port', port, '--log-level', 'warn'], {
    env: { ...env, SEARCH_LAYER_DATA_DIR: env.HOME },
    stdio: ['ignore', 'inherit', 'pipe'],
  })
  server.stderr.on('data', (chunk) => {
    const text = String(chunk)
    const url = /serving on (\S+)/.exec(text)?.[1]
    if (url)
      console.log(
        `\ndemo: the web app is at ${url}/ (search anything, or read https://github.com/octo/demo/issues/2); the engines are the emulator on ${emu.url}. Ctrl-C stops.\n`,
      )
    else process.stderr.write(chunk)
  })
  const stop = () => server.kill('SIGTERM')
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  const code = await new Promise((resolve) => server.on('exit', resolve))
  await emu.close()
  process.exit(code ?? 0)
}

const argv = args.length ? args : ['Bun vs Deno']
if (!argv.includes('--format') && !argv.includes('--json')) argv.push('--format', 'markdown')
console.error(
  `demo: emulator on ${emu.url} (Brave, Exa, Tavily and xAI wire formats); running: search-layer ${argv.map((a) => JSON.stringify(a)).join(' ')}\n`,
)
const child = spawn(process.execPath, [cli, 'providers'], { env, stdio: 'inherit' })
await new Promise((resolve) => child.on('exit', resolve))
console.log('')
const search = spawn(process.execPath, [cli, ...argv], { env, stdio: 'inherit' })
const code = await new Promise((resolve) => search.on('exit', resolve))
console.error('\ndemo: to look rather than read, run `npx -y pnpm@10 demo --web` and open the URL it prints.')
await emu.close()
process.exit(code ?? 1)
