import { startEmulator } from './emulator.js'
import type { Emulator } from './types.js'

/** Parsed `search-layer-emulator` flags. */
export interface EmulatorCliArgs {
  port: number
  host: string
  latencyMs?: number
}

const USAGE = 'Usage: search-layer-emulator [--port N] [--host ADDR] [--latency MS]'

/** Parses CLI flags; pure. Returns an error message (for exit code 2) instead of throwing. */
export function parseEmulatorArgs(
  argv: readonly string[],
): { ok: true; args: EmulatorCliArgs } | { ok: false; message: string } {
  const args: EmulatorCliArgs = { port: 0, host: '127.0.0.1' }
  for (let i = 0; i < argv.length; i++) {
    const raw = argv[i]!
    const eq = raw.indexOf('=')
    const flag = eq > 0 ? raw.slice(0, eq) : raw
    if (flag === '--help' || flag === '-h') return { ok: false, message: USAGE }
    if (!['--port', '--host', '--latency'].includes(flag))
      return { ok: false, message: `Unknown flag ${JSON.stringify(raw)}.\n${USAGE}` }
    const value = eq > 0 ? raw.slice(eq + 1) : argv[++i]
    if (value === undefined || value === '') return { ok: false, message: `${flag} needs a value.\n${USAGE}` }
    if (flag === '--host') {
      args.host = value
      continue
    }
    const n = Number(value)
    if (!/^\d+$/.test(value) || !Number.isSafeInteger(n))
      return { ok: false, message: `${flag} must be a non-negative integer, got ${JSON.stringify(value)}.\n${USAGE}` }
    if (flag === '--port') {
      if (n > 65_535) return { ok: false, message: `--port must be at most 65535, got ${n}.` }
      args.port = n
    } else args.latencyMs = n
  }
  return { ok: true, args }
}

/** Writable text sinks, so tests can drive the CLI. */
export interface CliIo {
  stdout: { write(text: string): unknown }
  stderr: { write(text: string): unknown }
}

/**
 * Runs the emulator CLI: starts the server and prints its URLs and `export` lines.
 * Resolves to exit code 2 on bad flags, 1 when the server cannot listen, or the running emulator.
 */
export async function runEmulatorCli(
  argv: readonly string[],
  io: CliIo,
): Promise<{ code: number; emulator?: Emulator }> {
  const parsed = parseEmulatorArgs(argv)
  if (!parsed.ok) {
    io.stderr.write(`${parsed.message}\n`)
    return { code: 2 }
  }
  const { port, host, latencyMs } = parsed.args
  let emulator: Emulator
  try {
    emulator = await startEmulator({ port, host, ...(latencyMs !== undefined && { latencyMs }) })
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown error'
    io.stderr.write(`search-layer-emulator: cannot listen on ${host}:${port} (${code}).\n`)
    return { code: 1 }
  }
  const lines = [`search-layer emulator listening on ${emulator.url}`, '']
  const width = Math.max(...Object.keys(emulator.urls).map((service) => service.length))
  for (const [service, url] of Object.entries(emulator.urls)) lines.push(`  ${service.padEnd(width)} ${url}`)
  lines.push('', '# paste into a shell to point search-layer at the emulator:')
  for (const [name, value] of Object.entries(emulator.env)) lines.push(`export ${name}=${shellQuote(value)}`)
  io.stdout.write(`${lines.join('\n')}\n`)
  return { code: 0, emulator }
}

function shellQuote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`
}
