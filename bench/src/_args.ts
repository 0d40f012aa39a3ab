/** Scenario ids, in run order. */
const SCENARIOS = [
  'pipeline',
  'stream',
  'cli',
  'faults',
  'latency-mix',
  'merge',
  'intent',
  'thread',
  'scans',
  'extract',
  'passages',
  'read',
  'ask',
  'server',
  'soak',
] as const
export type ScenarioId = (typeof SCENARIOS)[number]

/** Parsed command line of `pnpm bench`. */
export interface BenchArgs {
  quick: boolean
  /** Soak duration in minutes; 0 = no soak (it is opt-in). */
  soakMinutes: number
  /** Run only these scenarios (default: all but soak unless `--soak`). */
  only: ScenarioId[]
  /** Where latest.json / latest.md go; `null` = do not write (profiling runs). */
  outDir: string | null
  help: boolean
}

/** Thrown for a bad command line; main turns it into exit code 2. */
export class BenchUsageError extends Error {
  override name = 'BenchUsageError'
}

export const USAGE = `Usage: pnpm bench [-- options]

  --quick            a short run (a handful of iterations, short load tests, no soak); what CI runs
  --soak [minutes]   add the soak scenario (default 2 minutes): steady load with 10% provider faults
  --only a,b         run only these scenarios: ${SCENARIOS.join(', ')}
  --out DIR          where latest.json and latest.md go (default bench/results)
  --no-write         print the table only (for profiling runs)
  -h, --help         this help
`

/** Parses argv (without node and the script); a literal `--` (from `pnpm bench -- …`) is ignored. */
export function parseBenchArgs(argv: readonly string[], defaultOutDir: string): BenchArgs {
  const args: BenchArgs = { quick: false, soakMinutes: 0, only: [], outDir: defaultOutDir, help: false }
  const list = argv.filter((a) => a !== '--')
  for (let i = 0; i < list.length; i++) {
    const arg = list[i]!
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=')
        ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
        : [arg, undefined]
    switch (flag) {
      case '--quick':
        args.quick = true
        break
      case '--soak': {
        const next = inline ?? (list[i + 1] !== undefined && /^\d+(\.\d+)?$/.test(list[i + 1]!) ? list[++i] : undefined)
        const minutes = next === undefined ? 2 : Number(next)
        if (!Number.isFinite(minutes) || minutes <= 0 || minutes > 24 * 60)
          throw new BenchUsageError(`--soak takes minutes between 0 and 1440 (got "${next}")`)
        args.soakMinutes = minutes
        break
      }
      case '--only': {
        const value = inline ?? list[++i]
        if (!value) throw new BenchUsageError(`--only needs a comma list of ${SCENARIOS.join(', ')}`)
        for (const id of value.split(',').filter(Boolean)) {
          if (!(SCENARIOS as readonly string[]).includes(id))
            throw new BenchUsageError(`unknown scenario "${id}"; choose from ${SCENARIOS.join(', ')}`)
          args.only.push(id as ScenarioId)
        }
        break
      }
      case '--out': {
        const value = inline ?? list[++i]
        if (!value) throw new BenchUsageError('--out needs a directory')
        args.outDir = value
        break
      }
      case '--no-write':
        args.outDir = null
        break
      case '-h':
      case '--help':
        args.help = true
        break
      default:
        throw new BenchUsageError(`unknown argument "${arg}"\n\n${USAGE}`)
    }
  }
  return args
}

/** The scenarios a parsed command line selects, in run order. */
export function selectedScenarios(args: BenchArgs): ScenarioId[] {
  const wanted = args.only.length ? new Set(args.only) : new Set(SCENARIOS.filter((s) => s !== 'soak'))
  if (args.soakMinutes > 0) wanted.add('soak')
  if (args.quick && !args.only.includes('soak')) wanted.delete('soak')
  // `read` extracts five real ~140 KB pages per search: seconds each on a loaded host, too dear for a quick run.
  if (args.quick && !args.only.includes('read')) wanted.delete('read')
  return SCENARIOS.filter((s) => wanted.has(s))
}
