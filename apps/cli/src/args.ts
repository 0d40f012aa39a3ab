import { parseArgs } from 'node:util'
import { UsageError } from './io.js'

/** One flag of a command: how it parses and how help describes it. */
export interface FlagSpec {
  type: 'string' | 'boolean'
  short?: string
  /** `--queries a b c`: takes every following value up to the next flag. */
  variadic?: boolean
  /**
   * `--read [N]`: the value may be left out. The next argument is its value only when it matches `pattern`
   * (`--read "some query"` leaves the query alone); without one the flag's value is `''`.
   */
  optionalValue?: RegExp
  /** Allowed values, checked and listed in errors and help. */
  choices?: readonly string[]
  valueHint?: string
  description: string
}

export interface CommandSpec {
  name: string
  summary: string
  /** `search-layer intent <query> [options]` */
  usage: string
  flags: Record<string, FlagSpec>
  examples?: string[]
  /** Extra help sections (title → lines), e.g. every environment setting of `serve`; may be loaded lazily. */
  sections?: Record<string, string[]> | (() => Promise<Record<string, string[]>>)
}

export interface ParsedCommandArgs {
  values: Record<string, string | boolean | string[] | undefined>
  positionals: string[]
}

// A number is never a flag: `--timeout -5` is the flag with the value -5.
const NUMBER = /^-\d/

// What node's parseArgs reads differently from the CLI's own syntax, rewritten for it:
// - `--queries a b c`: parseArgs wants `--queries=a --queries=b` (with `=`, so that "-5 °C" is a value too), the
//   original skill takes the list.
// - `--read` with its value left out: `--read=` (empty), or `--read=N`.
// - `--timeout -5`: parseArgs takes "-5" for an option and reports the flag as having no value; as `--timeout=-5`
//   the flag's own check says what is allowed.
function normalizeArgv(argv: string[], flags: Record<string, FlagSpec>): string[] {
  const out: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!
    const name = token.startsWith('--') ? token.slice(2).split('=')[0]! : undefined
    const flag = name === undefined || token.includes('=') ? undefined : flags[name]
    const next = argv[i + 1]
    if (flag?.optionalValue) {
      out.push(`--${name}=${next !== undefined && flag.optionalValue.test(next) ? argv[++i] : ''}`)
      continue
    }
    if (flag?.type === 'string' && !flag.variadic && next !== undefined && NUMBER.test(next)) {
      out.push(`--${name}=${argv[++i]}`)
      continue
    }
    if (flag?.variadic) {
      let taken = 0
      while (i + 1 < argv.length && !argv[i + 1]!.startsWith('--')) {
        out.push(`--${name}=${argv[++i]}`)
        taken++
      }
      if (taken === 0) out.push(token)
      continue
    }
    out.push(token)
  }
  return out
}

/** Parses argv against a command's flags (strict): unknown flags, missing values and bad choices are `UsageError`s. */
export function parseCommandArgs(spec: CommandSpec, argv: string[]): ParsedCommandArgs {
  const options: Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }> = {}
  for (const [name, flag] of Object.entries(spec.flags)) {
    options[name] = {
      type: flag.type,
      ...(flag.short && { short: flag.short }),
      ...(flag.variadic && { multiple: true }),
    }
  }
  let parsed: ReturnType<typeof parseArgs>
  try {
    parsed = parseArgs({ args: normalizeArgv(argv, spec.flags), options, allowPositionals: true, strict: true })
  } catch (error) {
    throw new UsageError(explainParseError(error as Error & { code?: string }, spec), spec.name)
  }
  const values = parsed.values as ParsedCommandArgs['values']
  for (const [name, flag] of Object.entries(spec.flags)) {
    const value = values[name]
    if (!flag.choices || value === undefined || typeof value === 'boolean') continue
    for (const v of Array.isArray(value) ? value : [value]) {
      if (!flag.choices.includes(v)) {
        throw new UsageError(`--${name} must be one of ${flag.choices.join(', ')} (got "${v}")`, spec.name)
      }
    }
  }
  return { values, positionals: parsed.positionals }
}

function explainParseError(error: Error & { code?: string }, spec: CommandSpec): string {
  const flagMatch = /'(-{1,2}[^' ]+)/.exec(error.message)
  const flag = flagMatch?.[1]
  const known = Object.keys(spec.flags)
    .map((f) => `--${f}`)
    .join(', ')
  switch (error.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option ${flag ?? ''} for "${spec.name}"; allowed: ${known}`
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE': {
      const name = flag?.replace(/^-+/, '') ?? ''
      const f = spec.flags[name]
      if (f?.type === 'boolean') return `${flag} is a switch and takes no value`
      return `${flag ?? 'an option'} needs a value${f?.choices ? ` (one of ${f.choices.join(', ')})` : f?.valueHint ? ` (${f.valueHint})` : ''}`
    }
    default:
      return error.message
  }
}

/** Help text for one command, generated from its flag specs. */
export async function renderCommandHelp(spec: CommandSpec): Promise<string> {
  const rows = Object.entries(spec.flags).map(([name, flag]) => {
    const short = flag.short ? `-${flag.short}, ` : '    '
    const value = flag.valueHint ?? (flag.choices ? flag.choices.join('|') : 'value')
    const hint =
      flag.type !== 'string' ? '' : flag.optionalValue ? ` [${value}]` : ` <${value}>${flag.variadic ? '…' : ''}`
    return [`  ${short}--${name}${hint}`, flag.description]
  })
  const width = Math.min(40, Math.max(...rows.map((r) => r[0]!.length), 0) + 2)
  const lines = [`${spec.summary}`, '', `Usage: ${spec.usage}`, '']
  if (rows.length) {
    lines.push('Options:')
    for (const [left, right] of rows)
      lines.push(left!.length >= width ? `${left}\n${' '.repeat(width)}${right}` : `${left!.padEnd(width)}${right}`)
  }
  const sections = typeof spec.sections === 'function' ? await spec.sections() : (spec.sections ?? {})
  for (const [title, body] of Object.entries(sections)) lines.push('', `${title}:`, ...body.map((l) => `  ${l}`))
  if (spec.examples?.length) lines.push('', 'Examples:', ...spec.examples.map((e) => `  ${e}`))
  return `${lines.join('\n')}\n`
}
