// The build script's own tests: which packages it builds and with what, and its refusals.
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { buildTargets } from './build.mjs'

const SCRIPT = fileURLToPath(new URL('./build.mjs', import.meta.url))
const run = promisify(execFile)

/** A repository root with the given packages: directory → build script (undefined: none). */
function fakeRoot(packages) {
  const root = mkdtempSync(join(tmpdir(), 'sl-build-'))
  for (const [dir, build] of Object.entries(packages)) {
    mkdirSync(join(root, dir), { recursive: true })
    const scripts = build === undefined ? {} : { build }
    writeFileSync(join(root, dir, 'package.json'), JSON.stringify({ name: dir, scripts }))
  }
  return root
}

describe('build targets', () => {
  it('takes every package with a build script, in each group and bench, with the tool it names', () => {
    const root = fakeRoot({
      'packages/core': 'tsup',
      'packages/no-build': undefined,
      'apps/web': 'vite build',
      'apps/cli': 'tsup',
      'examples/plugin': 'tsup',
      bench: 'tsup',
      consumers: 'tsup', // not a group the build visits: consumers only install what was built
    })
    assert.deepEqual(buildTargets(root), [
      { dir: 'apps/cli', tool: 'tsup' },
      { dir: 'apps/web', tool: 'vite' },
      { dir: 'bench', tool: 'tsup' },
      { dir: 'examples/plugin', tool: 'tsup' },
      { dir: 'packages/core', tool: 'tsup' },
    ])
  })

  it('refuses a build script it does not know how to run in-process, naming the package', () => {
    const root = fakeRoot({ 'packages/odd': 'rollup -c' })
    assert.throws(
      () => buildTargets(root),
      /packages\/odd: build script "rollup -c" is neither "tsup" nor "vite build"/,
    )
  })

  it("finds this repository's web app and every library", () => {
    const targets = buildTargets()
    assert.deepEqual(
      targets.filter((t) => t.tool === 'vite').map((t) => t.dir),
      ['apps/web'],
    )
    for (const dir of ['packages/core', 'apps/cli', 'apps/server', 'bench'])
      assert.ok(
        targets.some((t) => t.dir === dir && t.tool === 'tsup'),
        dir,
      )
  })
})

describe('node scripts/build.mjs', () => {
  it('exits 2 naming a directory that holds no package with a build script', async () => {
    const error = await run(process.execPath, [SCRIPT, 'packages/nowhere']).then(
      () => assert.fail('expected a non-zero exit'),
      (e) => e,
    )
    assert.equal(error.code, 2)
    assert.match(error.stderr, /build: no package with a build script at packages\/nowhere/)
  })
})
