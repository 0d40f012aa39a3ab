import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config'
import shared from './vitest.shared'

// Every package's tests in one vitest process (`pnpm test`, `pnpm check`): one module graph, one pool of workers,
// instead of one vitest start-up per package. `cd packages/x && npx vitest run` still runs one package alone
// through its own vitest.config.ts (the same `vitest.shared.ts`).
//
// Each package is one project named after it. The files that need more than the sources — a build (`dist/`), a
// child process, redis-server or Chromium — form a second project, "<name> (system)", so `pnpm test:unit`
// (`--project '!*(system)'`) leaves them out for the edit loop. Paths are relative to the package.
const SYSTEM_TESTS: Record<string, string[]> = {
  // The built bin (`runBin`) and child `serve` processes; undici-http loads the bundled HTTP stack in a fresh node.
  'apps/cli': ['test/**/*.test.ts', 'src/undici-http.test.ts'],
  'apps/server': [
    'test/redis.e2e.test.ts',
    'test/shared-keys.e2e.test.ts',
    'test/shared-pace.e2e.test.ts',
    'test/web.e2e.test.ts', // the built web app in headless Chromium
    'src/heap-growth.test.ts', // a node child per V8 flag
  ],
  'packages/mcp': ['test/mcp.e2e.test.ts'], // the built stdio server as a child process
  'packages/page-fetch': ['test/render.e2e.test.ts'], // pages rendered in headless Chromium
  // The built packages loaded by plain Node and TypeScript projects, packed, and installed for real clients.
  consumers: ['test/**/*.test.ts'],
}

// Files that change what is loaded for the files after them in the same worker (module mocks, counts of module
// loads): they keep a fresh module graph each. Everything else shares one per worker.
const ISOLATED_TESTS: Record<string, string[]> = {
  'packages/engine': ['src/key-state.test.ts'],
  'packages/providers-duckduckgo': ['src/lazy-parser.test.ts'],
}

const GROUPS = ['packages', 'apps', 'examples', 'bench', 'consumers']

function packageDirs(): string[] {
  return GROUPS.flatMap((group) => {
    if (!existsSync(group)) return []
    if (existsSync(join(group, 'vitest.config.ts'))) return [group]
    return readdirSync(group)
      .map((name) => join(group, name))
      .filter((dir) => existsSync(join(dir, 'vitest.config.ts')))
  }).sort()
}

function project(dir: string, name: string, test: TestProjectInlineConfiguration['test']): TestProjectInlineConfiguration {
  return { ...shared, root: dir, test: { ...shared.test, ...test, name } } as TestProjectInlineConfiguration
}

function projectsOf(dir: string): TestProjectInlineConfiguration[] {
  const name = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string }).name
  const system = SYSTEM_TESTS[dir] ?? []
  const isolated = ISOLATED_TESTS[dir] ?? []
  const exclude = [...configDefaults.exclude, ...system, ...isolated]
  return [
    project(dir, name, { exclude, isolate: false }),
    isolated.length > 0 && project(dir, `${name} (isolated)`, { include: isolated }),
    system.length > 0 && project(dir, `${name} (system)`, { include: system }),
  ].filter((p): p is TestProjectInlineConfiguration => p !== false)
}

export default defineConfig({
  test: {
    projects: packageDirs().flatMap(projectsOf),
    // vitest's default leaves one core to its main process (one worker on two cores); that process is mostly idle
    // once the module graph is transformed, so every core runs tests.
    maxWorkers: availableParallelism(),
    reporters: ['default', ['json', { outputFile: 'test-results.json' }]],
  },
})
