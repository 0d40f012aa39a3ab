// How the workspace's tests start the extraction worker from the TypeScript sources, with no build: esbuild bundles
// extract-worker.ts and the workspace code it imports into one ES module, once per process. A worker then starts as
// the built one does (~0.2 s of CPU); loading the sources through tsx's loader cost every worker start 1.2-1.7 s of
// CPU (a loader thread and a transform per file), and the test suite starts dozens. The published package never
// comes here: its dist holds the built worker.
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'

// The bundle sits under page-fetch's node_modules so that what it leaves out (pdf.js, loaded with the first PDF)
// resolves from there as it does for the sources.
const CACHE_DIR = new URL('../node_modules/.cache/search-layer/', import.meta.url)
// CommonJS dependencies bundled into an ES module call `require` for Node's built-ins.
const REQUIRE_SHIM =
  "import { createRequire as __slRequire } from 'node:module'; const require = __slRequire(import.meta.url);"

// A day: a bundle of sources edited since then belongs to no running test.
const STALE_MS = 24 * 60 * 60 * 1000

const bundles = new Map<string, URL | undefined>()

/**
 * `source` (a `.ts` worker entry) bundled for a worker, or undefined when esbuild is not installed. A source that
 * does not bundle throws esbuild's error: a test then fails saying why, instead of waiting for a worker.
 */
export function sourceWorkerBundle(source: URL): URL | undefined {
  if (bundles.has(source.href)) return bundles.get(source.href)
  const esbuild = loadEsbuild()
  const bundle = esbuild && build(esbuild, source)
  bundles.set(source.href, bundle)
  return bundle
}

type Esbuild = typeof import('esbuild')

function loadEsbuild(): Esbuild | undefined {
  try {
    return createRequire(import.meta.url)('esbuild') as Esbuild
  } catch {
    return undefined
  }
}

function build(esbuild: Esbuild, source: URL): URL {
  const { outputFiles } = esbuild.buildSync({
    entryPoints: [fileURLToPath(source)],
    write: false,
    outdir: fileURLToPath(CACHE_DIR),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Workspace packages from their sources, as the tests import them.
    conditions: ['@search-layer/source'],
    external: ['unpdf'],
    banner: { js: REQUIRE_SHIM },
    logLevel: 'silent',
  })
  const code = outputFiles[0]!.contents
  // Named by content: every process (vitest's workers, each test run) that bundles the same sources shares one file,
  // so none has to remove its own at exit (a worker process can be killed before it could). Older ones are pruned.
  // (node:crypto loads here only: this module is in every build, where nothing else of a search needs it.)
  const { createHash } = createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto')
  const name = `extract-worker-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`
  const bundle = new URL(name, CACHE_DIR)
  mkdirSync(CACHE_DIR, { recursive: true })
  if (existsSync(bundle)) {
    // In use again: not stale for another day.
    const now = new Date()
    utimesSync(bundle, now, now)
  } else {
    const partial = new URL(`${name}.${process.pid}.tmp`, CACHE_DIR)
    writeFileSync(partial, code)
    renameSync(partial, bundle)
    pruneOlderThan(Date.now() - STALE_MS)
  }
  return bundle
}

/** Bundles of sources as they were more than `STALE_MS` ago: nothing loads them any more. */
function pruneOlderThan(cutoff: number): void {
  for (const entry of readdirSync(CACHE_DIR)) {
    const path = new URL(entry, CACHE_DIR)
    if (entry.startsWith('extract-worker-') && statSync(path).mtimeMs < cutoff) rmSync(path, { force: true })
  }
}
