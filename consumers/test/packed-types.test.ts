import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { checkPackage, createPackageFromTarballData } from '@arethetypeswrong/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { packPublished } from './_packed-project'
import { publishedPackages } from './_published'

// Its own directory: packed-clients packs into the shared cache at the same time, in another process.
const packDir = mkdtempSync(join(tmpdir(), 'search-layer-packs-'))
afterAll(() => rmSync(packDir, { recursive: true, force: true }))

const packages = publishedPackages()

describe('the packed packages have types that match each format (@arethetypeswrong/core)', () => {
  let tarballs = new Map<string, string>()
  beforeAll(async () => {
    tarballs = await packPublished(packDir)
  }, 300_000)

  it('pnpm pack makes a tarball of every published package', () => {
    expect([...tarballs.keys()].sort()).toEqual(packages.map((p) => p.name).sort())
  })

  it.each(packages.map((p) => [p.name]))('%s has no problem under node16 (CJS and ESM) and bundler', async (name) => {
    const tarball = tarballs.get(name)
    if (!tarball) throw new Error(`${name} was not packed`)
    const pkg = packages.find((p) => p.name === name)
    const entrypoints = (pkg?.specifiers ?? []).map((spec) => (spec === name ? '.' : `.${spec.slice(name.length)}`))
    const result = await checkPackage(createPackageFromTarballData(new Uint8Array(readFileSync(tarball))), {
      entrypoints,
    })
    // node10 resolution predates `exports`: subpaths cannot resolve there, which every Node ≥ 12 ignores.
    const problems = 'problems' in result ? result.problems : []
    const relevant = problems.filter((p) => !('resolutionKind' in p) || p.resolutionKind !== 'node10')
    expect(relevant).toEqual([])
  })
})
