import { describe, expect, it } from 'vitest'
import { parseCommandArgs } from './args.js'
import { commands } from './commands/index.js'
import { searchCommand } from './commands/search.js'
import { run } from '../test/_run.js'

const parse = (...argv: string[]) => parseCommandArgs(searchCommand, argv)

describe('a negative number after a flag', () => {
  it('is the flag’s value, wherever the flag takes one', () => {
    expect(parse('q', '--timeout', '-5').values.timeout).toBe('-5')
    expect(parse('--num', '-3', 'q')).toMatchObject({ values: { num: '-3' }, positionals: ['q'] })
    expect(parse('q', '--patience', '-0.5').values.patience).toBe('-0.5')
    // Not a switch's (a switch takes no value), nor a list's, whose items may be any text.
    expect(() => parse('q', '--json', '-5')).toThrow(/unknown option -5/)
    expect(parse('--queries', '-5 °C', 'freezing').values.queries).toEqual(['-5 °C', 'freezing'])
  })

  // Every numeric flag of every command: before, parseArgs took "-5" for an option and the error said the flag
  // "needs a value", though one was given.
  const numeric = commands.flatMap((command) =>
    Object.entries(command.flags)
      .filter(([, flag]) => flag.type === 'string' && !flag.variadic && /^(ms|n|bytes)$|\d/.test(flag.valueHint ?? ''))
      .map(([name]) => [command.name, name] as const),
  )

  it('finds the numeric flags it covers', () => {
    expect(numeric).toContainEqual(['search', 'timeout'])
    expect(numeric).toContainEqual(['serve', 'port'])
  })

  // What each command needs besides the flag to reach its checks (nothing is fetched: the checks come first).
  const THREAD = 'https://github.com/owner/repo/issues/1'
  const context: Record<string, string[]> = {
    search: ['some query'],
    ask: ['ask', 'a question'],
    thread: ['thread', THREAD],
    refs: ['refs', THREAD],
    chain: ['chain', THREAD, '--query', 'a leak'],
    fetch: ['fetch', 'https://example.invalid/'],
  }

  it.each(numeric)('%s --%s -5 is refused naming the flag, exit 2', async (command, name) => {
    const { code, stderr } = await run([...(context[command] ?? [command]), `--${name}`, '-5'])
    expect(stderr).toContain(`--${name}`)
    expect(stderr).not.toMatch(/needs a value/)
    expect(code).toBe(2)
  })
})

describe('flags that contradict or say nothing', () => {
  it.each([
    [['some query', '--json', '--format', 'markdown'], '--json and --format markdown disagree; give one of them'],
    [['fetch', 'https://example.invalid/', '--json', '--format', 'markdown'], '--json and --format markdown disagree'],
    [['ask', 'a question', '--json', '--format', 'markdown'], '--json and --format markdown disagree'],
    [['thread', 'https://github.com/owner/repo/issues/1', '--json', '--format', 'markdown'], '--json and --format'],
    [
      ['some query', '--include-domains', ','],
      '--include-domains needs at least one domain, like a.com,b.org (got ",")',
    ],
    [['some query', '--exclude-domains', ' '], '--exclude-domains needs at least one domain'],
    [['some query', '--domain-boost', ',,'], '--domain-boost needs at least one domain'],
  ])('%j is refused (exit 2): %s', async (argv, message) => {
    const { code, stderr } = await run(argv)
    expect(stderr).toContain(message)
    expect(code).toBe(2)
  })
})

describe('SEARCH_LAYER_CODE_CACHE', () => {
  // Read before the CLI can report anything (cli.ts's first line): the word is checked again as a command starts.
  it.each([
    ['search', 'q'],
    ['intent', 'q'],
    ['fetch', 'https://example.com/'],
  ])('%s refuses a word that is neither on nor off, naming it (exit 2)', async (...argv) => {
    const { code, stderr } = await run(argv, { SEARCH_LAYER_CODE_CACHE: 'nope' })
    expect(stderr).toContain('configuration error: SEARCH_LAYER_CODE_CACHE="nope" is not allowed; use on or off.')
    expect(code).toBe(2)
  })

  it("takes the house's on/off words", async () => {
    for (const word of ['0', 'false', 'ON'])
      expect((await run(['intent', 'rust vs go'], { SEARCH_LAYER_CODE_CACHE: word })).code).toBe(0)
  })
})

describe('per-query commands bound their queries', () => {
  it.each(['intent', 'expand'])('%s refuses a query over 2000 characters, as search does (exit 2)', async (command) => {
    const { code, stderr } = await run([command, 'a'.repeat(2001)])
    expect(stderr).toContain('a query is at most 2000 characters (got 2001)')
    expect(code).toBe(2)
  })

  it('intent --stdin answers each line in place and says which line was too long (exit 1)', async () => {
    const { code, stdout } = await run(
      ['intent', '--stdin'],
      {},
      `Bun vs Deno\n${'x'.repeat(5000)}\nRust 异步编程 教程\n`,
    )
    const records = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    expect(records).toHaveLength(3)
    expect(records[0]).toMatchObject({ query: 'Bun vs Deno' })
    expect(records[1]).toEqual({ error: 'line 2: a query is at most 2000 characters; this line is longer' })
    expect(records[2]).toMatchObject({ query: 'Rust 异步编程 教程' })
    expect(code).toBe(1)
  })
})
