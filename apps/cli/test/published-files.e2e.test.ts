// What the published package carries beside its bundle: types a user can resolve with only this package installed,
// and the licences of the code the bundle holds.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

const DIST = new URL('../dist/', import.meta.url)
const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  dependencies?: Record<string, string>
}

const importsOf = (types: string) => [...types.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)].map((m) => m[1]!)

describe('the published files', () => {
  it('types import nothing but Node and the package itself', () => {
    // Every declaration file reachable from index.d.ts through relative imports: a user's TypeScript reads them all.
    const files = new Map<string, string>()
    const visit = (name: string) => {
      if (files.has(name)) return
      const types = readFileSync(new URL(name, DIST), 'utf8')
      files.set(name, types)
      for (const spec of importsOf(types))
        if (spec.startsWith('./')) visit(spec.replace(/^\.\//, '').replace(/\.js$/, '.d.ts'))
    }
    visit('index.d.ts')
    const foreign = [...files.values()]
      .flatMap(importsOf)
      .filter((spec) => !spec.startsWith('.') && !spec.startsWith('node:') && !(spec in (manifest.dependencies ?? {})))
    expect(foreign).toEqual([])
    expect([...files.keys()].sort()).toEqual(['index.d.ts', 'io.d.ts', 'main.d.ts'])
    expect(files.get('main.d.ts')).toMatch(/declare function runCli\(/)
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
