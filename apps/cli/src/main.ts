import pkg from '../package.json' with { type: 'json' }
import { parseCommandArgs, renderCommandHelp } from './args.js'
import type { Command } from './command.js'
import { codeCacheSetting } from './compile-cache.js'
import { type CliIo, EXIT } from './io.js'
import { terminalSafe } from './terminal-text.js'
import { commands } from './commands/index.js'

/** The CLI's version, from its package.json. */
export const VERSION: string = pkg.version

function mainHelp(): string {
  const width = Math.max(...commands.map((c) => c.name.length)) + 2
  return [
    `search-layer ${VERSION} — one search call over many web search providers, for people and agents.`,
    '',
    'Usage: search-layer <command> [options]',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}${c.summary}`),
    '',
    'Options:',
    '  -h, --help     show help (also: search-layer <command> --help)',
    '  -v, --version  print the version',
    '',
    "Keys come from each provider's variable (`search-layer providers` lists them) or ~/.config/search-layer/config.json,",
    'whose "plugins" list adds provider packages.',
    '',
  ].join('\n')
}

/**
 * The process's streams and env, with `overrides` (tests) over them. `process.stdin` is a getter that builds the
 * stream on first read (a TTY or socket reader, with the modules behind it): only the commands that read stdin
 * (`intent --stdin`, `mcp`) pay for it, not every search.
 */
function processIo(overrides: Partial<CliIo>): CliIo {
  const io = { stdout: process.stdout, stderr: process.stderr, env: process.env, ...overrides }
  if (overrides.stdin) return io as CliIo
  return Object.defineProperty(io, 'stdin', { get: () => process.stdin, enumerable: true }) as CliIo
}

/**
 * Runs the CLI with the given arguments (without `node` and the script) and returns the exit code.
 * Never throws: every error becomes a message on stderr and a non-zero code.
 */
export async function runCli(argv: string[], ioOverrides: Partial<CliIo> = {}): Promise<number> {
  const io = processIo(ioOverrides)
  const [first, ...rest] = argv
  if (first === undefined) {
    io.stderr.write(mainHelp())
    return EXIT.usage
  }
  if (first === '--help' || first === '-h' || first === 'help') {
    const target = first === 'help' ? commands.find((c) => c.name === rest[0]) : undefined
    io.stdout.write(target ? await renderCommandHelp(target) : mainHelp())
    return EXIT.ok
  }
  if (first === '--version' || first === '-v') {
    io.stdout.write(`${VERSION}\n`)
    return EXIT.ok
  }
  let command = commands.find((c) => c.name === first)
  let commandArgv = rest
  if (!command) {
    // `search-layer "rust async"` is a search, as in the original skill — if search is available.
    const search = commands.find((c) => c.name === 'search')
    if (search && !first.startsWith('-')) {
      command = search
      commandArgv = argv
    } else if (search && first.startsWith('--')) {
      command = search
      commandArgv = argv
    } else {
      io.stderr.write(
        `search-layer: unknown command "${first}"; available: ${commands.map((c) => c.name).join(', ')}\n`,
      )
      return EXIT.usage
    }
  }
  return runCommand(command, commandArgv, io)
}

async function runCommand(command: Command, argv: string[], io: CliIo): Promise<number> {
  try {
    if (argv.includes('--help') || argv.includes('-h')) {
      io.stdout.write(await renderCommandHelp(command))
      return EXIT.ok
    }
    const args = parseCommandArgs(command, argv)
    // Read before the CLI could report anything (cli.ts): a word that is neither on nor off is told here.
    const codeCache = await codeCacheSetting(io.env)
    if (typeof codeCache === 'string') throw Object.assign(new Error(codeCache), { name: 'ConfigError' })
    return await command.run(args, io)
  } catch (error) {
    return await reportError(error, command, io)
  }
}

// Errors are recognised by name (core's classes set it), so the happy path never loads core for this.
const isNamed = (error: unknown, name: string): error is Error & { kind?: string } =>
  error instanceof Error && error.name === name

async function reportError(error: unknown, command: Command, io: CliIo): Promise<number> {
  const { redactSecrets } = await import('@search-layer/core')
  // Messages may quote what an upstream said.
  const say = (text: string) => io.stderr.write(terminalSafe(`search-layer ${command.name}: ${redactSecrets(text)}\n`))
  // By name too: a command run from its own bundle (code-cache.ts) has its own copy of the class.
  if (isNamed(error, 'UsageError')) {
    say(error.message)
    io.stderr.write(`Run "search-layer ${command.name} --help" for usage.\n`)
    return EXIT.usage
  }
  if (isNamed(error, 'InputError')) {
    say(error.message)
    return EXIT.usage
  }
  if (isNamed(error, 'ConfigError')) {
    say(`configuration error: ${error.message}`)
    return EXIT.usage
  }
  if (isNamed(error, 'ProviderError')) {
    say(`${error.kind}: ${error.message}`)
    return EXIT.failure
  }
  say(`unexpected error: ${(error as Error)?.message ?? String(error)}`)
  if (io.env.SEARCH_LAYER_DEBUG) io.stderr.write(`${(error as Error)?.stack ?? ''}\n`)
  return EXIT.failure
}
