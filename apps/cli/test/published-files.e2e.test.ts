// What the published package carries beside its bundle: types a user can resolve with only this package installed,
// and the licences of the code the bundle holds.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

const DIST = new URL('../dist/', import.meta.url)
const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  dependencies?: Record<string, string>
}

describe('the published files', () => {
  it('types import nothing but Node and the package itself', () => {
    const types = readFileSync(new URL('index.d.ts', DIST), 'utf8')
    const imported = [...types.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)].map((m) => m[1]!)
    const foreign = imported.filter(
      (spec) => !spec.startsWith('.') && !spec.startsWith('node:') && !(spec in (manifest.dependencies ?? {})),
    )
    expect(foreign).toEqual([])
    expect(types).toMatch(/declare function runCli\(/)
  })

  it('THIRD-PARTY-NOTICES.md names the packages bundled in, with their licences', () => {
    const notices = readFileSync(new URL('THIRD-PARTY-NOTICES.md', DIST), 'utf8')
    const expected: [name: string, licence: string][] = [
      ['linkedom', 'ISC'],
      ['zod', 'MIT'],
      ['@mozilla/readability', 'Apache-2.0'],
      ['ai', 'Apache-2.0'],
    ]
    for (const [name, licence] of expected)
      expect(notices).toMatch(new RegExp(`^## ${name.replace('/', '\\/')} \\S+ \\(${licence}\\)$`, 'm'))
    expect(notices).not.toMatch(/^## @search-layer\//m)
  })
})
