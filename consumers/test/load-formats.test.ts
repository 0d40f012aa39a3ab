import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { CONSUMERS_DIR, ESM_ONLY, publishedPackages } from './_published'

const run = promisify(execFile)

// Loads every subpath in a plain Node process (vitest's own resolution would pick the TypeScript sources) with
// `require()` and with `import()`, and reports the export names each gives.
const PROBE = `
import { createRequire } from 'node:module'
const require = createRequire(process.cwd() + '/package.json')
const out = {}
for (const spec of JSON.parse(process.argv[1])) {
  const names = (m) => Object.keys(m).filter((k) => k !== 'default' && k !== '__esModule').sort()
  out[spec] = { cjs: names(require(spec)), esm: names(await import(spec)) }
}
process.stdout.write(JSON.stringify(out))
`

describe('every published package loads from CommonJS and ESM', { timeout: 120_000 }, () => {
  const specifiers = publishedPackages().flatMap((p) => p.specifiers)
  const loaded = async () => {
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', PROBE, JSON.stringify(specifiers)], {
      cwd: CONSUMERS_DIR,
      encoding: 'utf8',
      maxBuffer: 16 * 1024 * 1024,
    })
    return JSON.parse(stdout) as Record<string, { cjs: string[]; esm: string[] }>
  }

  it('every subpath without a require() target is ESM only on purpose', () => {
    const esmOnly = publishedPackages().flatMap((p) => p.esmOnly.map((subpath) => `${p.name}${subpath.slice(1)}`))
    expect(esmOnly.sort()).toEqual(Object.keys(ESM_ONLY).sort())
  })

  it('require() and import() give the same exports for every subpath', async () => {
    const result = await loaded()
    expect(Object.keys(result).sort()).toEqual([...specifiers].sort())
    for (const spec of specifiers) {
      const { cjs, esm } = result[spec] ?? { cjs: [], esm: [] }
      expect(esm.length, `${spec} exports nothing`).toBeGreaterThan(0)
      expect(cjs, `${spec}: require() and import() differ`).toEqual(esm)
    }
  })

  it('one class per package in CommonJS, whichever subpath loads it', async () => {
    // errorFromStatus (core/http) builds the same ProviderError class that core's main entry exports.
    const script = `const core = require('@search-layer/core'); const http = require('@search-layer/core/http');
      const error = http.errorFromStatus('brave', 429, { detail: 'slow down' });
      process.stdout.write(String(error instanceof core.ProviderError && core.isProviderError(error)))`
    const { stdout } = await run(process.execPath, ['-e', script], { cwd: CONSUMERS_DIR, encoding: 'utf8' })
    expect(stdout).toBe('true')
  })
})
