import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/** The repository root, two levels above this file. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url))
/** This package's directory: its node_modules holds every published package, as a user's project would. */
export const CONSUMERS_DIR = fileURLToPath(new URL('../', import.meta.url))

interface ExportTarget {
  import?: unknown
  require?: unknown
}

export interface PublishedPackage {
  name: string
  dir: string
  /** Import specifiers of every subpath that has both an `import` and a `require` target. */
  specifiers: string[]
  /** Subpaths (`./x`) without a `require` target. */
  esmOnly: string[]
}

/** The subpaths that are ESM only on purpose, and why; any other subpath must load with `require()` too. */
export const ESM_ONLY: Record<string, string> = {
  '@search-layer/page-fetch/extract-worker':
    'the extraction worker, started by path as a worker thread, never imported',
  '@search-layer/testkit/vitest': 'vitest itself cannot be loaded with require()',
  '@search-layer/cli': 'one self-contained ESM bundle for the command line; its parts are the other packages',
}

/**
 * Subpaths whose module imports an optional peer dependency (the Vercel AI SDK, vitest): a user loads them only
 * with that peer installed, so the TypeScript consumers, which install no peers, leave them out.
 */
export const NEEDS_OPTIONAL_PEER = new Set(['@search-layer/tools/ai-sdk', '@search-layer/testkit/vitest'])

/** Every package under packages/ and apps/ that is published (not private), with its dual-format subpaths. */
export function publishedPackages(): PublishedPackage[] {
  return ['packages', 'apps']
    .flatMap((group) => readdirSync(`${ROOT}${group}`).map((entry) => `${ROOT}${group}/${entry}`))
    .sort()
    .flatMap((dir) => {
      const pkg = JSON.parse(readFileSync(`${dir}/package.json`, 'utf8')) as {
        name: string
        private?: boolean
        exports: Record<string, ExportTarget | string>
      }
      if (pkg.private) return []
      const dual = (target: ExportTarget | string) => typeof target === 'object' && target.import && target.require
      const entries = Object.entries(pkg.exports)
      const specifier = (subpath: string) => (subpath === '.' ? pkg.name : `${pkg.name}${subpath.slice(1)}`)
      const specifiers = entries.filter(([, target]) => dual(target)).map(([subpath]) => specifier(subpath))
      const esmOnly = entries.filter(([, target]) => !dual(target)).map(([subpath]) => subpath)
      return [{ name: pkg.name, dir, specifiers, esmOnly }]
    })
}
