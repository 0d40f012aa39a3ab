import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { join, relative } from 'node:path'
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config'
import { BaseSequencer, type TestSpecification } from 'vitest/node'
import shared from './vitest.shared'

// Every package's tests in one vitest process (`pnpm test`, `pnpm check`), in three projects:
//
// - "unit": every file that needs only the sources, all packages together in one module graph per worker. One
//   project per package (as before) made each worker load zod, core and the engine again for every package:
//   collecting took 441 of 743 s on a loaded 2-core machine; in one project it takes 36 of 280 s.
// - "isolated": files that mock modules (`vi.mock`/`vi.doMock`) or count module loads; they get a fresh module
//   graph each, since a mock cannot reach a module another file already loaded. Found by reading the files, so a
//   new mocking test cannot land in the shared graph by mistake.
// - "system": files that need more than the sources — a build (`dist/`), a child process, redis-server or
//   Chromium (listed below, relative to their package: a file, or a directory ending in `/` for all in it).
//   `pnpm test:unit` leaves them out for the edit loop.
//
// Each project names its files outright rather than excluding the others: knip reads these projects for the test
// entry files and would apply one project's excludes to all.
//
// A project's `isolate` only decides whether a worker drops its module graph between files. Whether each file gets a
// new worker process is the pool's choice, and vitest 3 reads it from the root config alone
// (`poolOptions.forks.isolate`, default true), for every project in the run. So `unit` shares a module graph only
// when the run says `--poolOptions.forks.isolate=false`, as `pnpm test:unit`, `pnpm test` and `check` do for the
// unit and isolated projects; `isolated` then drops its graph (and mocks) before each of its files, in a worker that
// has run no unit file. The system project runs on its own, with a new process for each file.
//
// One package from the root: `npx vitest run packages/engine`; `cd packages/engine && npx vitest run` runs it
// through its own vitest.config.ts (the same `vitest.shared.ts`).
const SYSTEM_TESTS: Record<string, string[]> = {
  // The built bin (`runBin`) and child `serve` processes; undici-http loads the bundled HTTP stack in a fresh node.
  'apps/cli': ['test/', 'src/undici-http.test.ts'],
  'apps/server': [
    'test/redis.e2e.test.ts',
    'test/shared-keys.e2e.test.ts',
    'test/shared-pace.e2e.test.ts',
    'test/web.e2e.test.ts', // the built web app in headless Chromium
    'test/web-ask.e2e.test.ts', // the same, its Ask view
    'src/heap-growth.test.ts', // a node child per V8 flag
  ],
  'packages/mcp': ['test/mcp.e2e.test.ts'], // the built stdio server as a child process
  'packages/page-fetch': ['test/render.e2e.test.ts'], // pages rendered in headless Chromium
  // The built packages loaded by plain Node and TypeScript projects, packed, and installed for real clients.
  consumers: ['test/'],
}

// The system files that run longest, started before the rest so the short files fill in around them (CI on two
// cores: packed-clients 90-115 s with its four npm installs, the web app 31-44 s, search 33-39 s, the server's
// refusals 20-28 s, rendering ~25 s, typescript-consumers and packed-types 45 s each until they got cheaper, now 15-20
// s). Without a results cache (every fresh clone, so every CI run) vitest starts the largest files first, and
// packed-clients began 94 s into the step, typescript-consumers 240 s and packed-types 256 s into a 300 s one, each
// ending alone. With a cache (a second run in the same clone) vitest's own order is slowest first, as here.
const LONGEST_FIRST = [
  'consumers/test/packed-clients.test.ts',
  'consumers/test/packed-types.test.ts',
  'consumers/test/typescript-consumers.test.ts',
  'apps/cli/test/search.e2e.test.ts',
  'apps/server/test/web.e2e.test.ts',
  'packages/page-fetch/test/render.e2e.test.ts',
  'apps/cli/test/serve-refusals.e2e.test.ts',
]

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const at = LONGEST_FIRST.findIndex((path) => file.moduleId.endsWith(`/${path}`))
      return at === -1 ? LONGEST_FIRST.length : at
    }
    // Stable: the rest keep vitest's order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b))
  }
}

const GROUPS = ['packages', 'apps', 'examples', 'bench', 'consumers']
const TEST_DIRS = ['src', 'test']
const MOCKS_MODULES = /\bvi\.(?:mock|doMock|unmock|resetModules)\(/

function packageDirs(): string[] {
  return GROUPS.flatMap((group) => {
    if (!existsSync(group)) return []
    if (existsSync(join(group, 'vitest.config.ts'))) return [group]
    return readdirSync(group)
      .map((name) => join(group, name))
      .filter((dir) => existsSync(join(dir, 'vitest.config.ts')))
  }).sort()
}

function testFiles(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts') && !file.split('/').includes('node_modules'))
    .map((file) => join(dir, file))
}

const dirs = packageDirs()
const files = dirs.flatMap((dir) =>
  TEST_DIRS.flatMap((sub) => testFiles(join(dir, sub))).map((file) => ({ dir, file, inPackage: relative(dir, file) })),
)
const isSystem = ({ dir, inPackage }: (typeof files)[number]) =>
  (SYSTEM_TESTS[dir] ?? []).some((path) => (path.endsWith('/') ? inPackage.startsWith(path) : inPackage === path))
const mocksModules = ({ file }: (typeof files)[number]) => MOCKS_MODULES.test(readFileSync(file, 'utf8'))
const system = files.filter(isSystem).map((f) => f.file)
const isolated = files.filter((f) => !isSystem(f) && mocksModules(f)).map((f) => f.file)
const unit = files.filter((f) => !isSystem(f) && !mocksModules(f)).map((f) => f.file)

function project(name: string, test: TestProjectInlineConfiguration['test']): TestProjectInlineConfiguration {
  return { ...shared, test: { ...shared.test, ...test, name } } as TestProjectInlineConfiguration
}

/** Every value the command line gives `--name` (as `--name value` or `--name=value`). */
function flagValues(argv: string[], name: string): string[] {
  return argv.flatMap((arg, i) =>
    arg === name ? [argv[i + 1] ?? ''] : arg.startsWith(`${name}=`) ? [arg.slice(name.length + 1)] : [],
  )
}

/**
 * Worker processes: one a core, or two a core for a run of named projects without the system project (`pnpm
 * test:unit`); a count the command line gives wins. Those unit runs start every worker at once (see below).
 */
function workerCounts(argv: string[]): { maxWorkers?: number; minWorkers?: number } {
  const projects = flagValues(argv, '--project')
  const unitOnly = projects.length > 0 && !projects.includes('system')
  // The command line's own value applies as given (a count or a share of the cores).
  const given = flagValues(argv, '--maxWorkers').at(-1)
  if (given !== undefined) return unitOnly && /^\d+$/.test(given) ? { minWorkers: Number(given) } : {}
  const count = (unitOnly ? 2 : 1) * availableParallelism()
  return unitOnly ? { maxWorkers: count, minWorkers: count } : { maxWorkers: count }
}

export default defineConfig({
  test: {
    projects: [
      project('unit', { include: unit, isolate: false }),
      project('isolated', { include: isolated, isolate: true }), // explicit: the root's pool option would decide it
      project('system', { include: system }),
    ],
    // vitest's default leaves one core to its main process (one worker on two cores); that process is mostly idle
    // once the module graph is transformed, so every core runs tests. A run of the unit projects alone (`pnpm
    // test:unit`) gets two workers a core: a third of its test time is waiting (pacing windows, hang deadlines, loopback
    // round trips), which another worker's file fills (2 cores: 127 s with two workers, 83-95 s with four; six load
    // six module graphs and took 91 s). Workers are not a setting vitest takes per project, hence the argv.
    // All started at once in the unit runs: with a lower minimum, each of five ended with tinypool's "Terminating
    // worker thread" rejection after every test had passed (a worker above the minimum ended while vitest still held
    // it for the shared module graph); none of six with the two equal.
    ...workerCounts(process.argv),
    sequence: { sequencer: LongestFirst },
    reporters: ['default', 'json'],
    // A default the command line can replace (`--outputFile.json=…`); `scripts/check.mjs` runs two vitest processes.
    outputFile: { json: 'test-results.json' },
  },
})
