import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** What every scenario gets from main. */
export interface ScenarioContext {
  quick: boolean
  /** Soak length (only the soak scenario reads it). */
  soakMinutes: number
  /** Progress lines go to stderr so stdout stays the table. */
  log(line: string): void
  /** A fresh empty HOME for the code under test (no user config or cache leaks in). */
  tempHome(): Promise<string>
}

/** Creates the context and a cleanup for the temp directories it handed out. */
export function createContext(options: { quick: boolean; soakMinutes: number }): {
  ctx: ScenarioContext
  cleanup(): Promise<void>
} {
  const dirs: string[] = []
  const ctx: ScenarioContext = {
    ...options,
    log: (line) => process.stderr.write(`  ${line}\n`),
    async tempHome() {
      const dir = await mkdtemp(join(tmpdir(), 'search-layer-bench-'))
      dirs.push(dir)
      return dir
    },
  }
  return {
    ctx,
    cleanup: async () => void (await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })))),
  }
}

/** Resident set size of this process in MB. */
export const rssMb = (): number => Math.round(process.memoryUsage().rss / 2 ** 20)

/** `--cpu-prof` flags for a child process when `BENCH_CPU_PROF_DIR` is set (profiling runs), else none. */
export function childProfileArgs(name: string): string[] {
  const dir = process.env.BENCH_CPU_PROF_DIR
  return dir ? ['--cpu-prof', '--cpu-prof-dir', dir, '--cpu-prof-name', `${name}-${Date.now()}.cpuprofile`] : []
}
