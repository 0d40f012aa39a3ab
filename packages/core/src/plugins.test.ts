import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ConfigError } from './errors.js'
import { loadProviderPlugins } from './plugins.js'

const definitionSource = (id: string) => `{
  id: '${id}', label: 'Foo', docsUrl: 'https://foo.example/docs',
  env: { apiKey: ['FOO_API_KEY'], baseUrl: 'FOO_API_URL' }, defaultBaseUrl: 'https://foo.example',
  capabilities: ['web'], priority: 60, rateLimit: { perSecond: 1, burst: 1, maxConcurrent: 1 }, cost: {},
  create: () => ({ name: '${id}', isConfigured: () => true, search: async () => ({ results: [] }) }),
}`

function fixture(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sl-plugins-'))
  const write = (rel: string, text: string) => {
    mkdirSync(join(dir, rel, '..'), { recursive: true })
    writeFileSync(join(dir, rel), text)
  }
  write('one.mjs', `export default ${definitionSource('foo')}`)
  write('many.mjs', `export default [${definitionSource('foo-a')}, ${definitionSource('foo-b')}]`)
  write('named.mjs', `export const foo = ${definitionSource('foo')}`)
  write('broken.mjs', `export default { ...${definitionSource('foo')}, capabilities: ['telepathy'] }`)
  write('throws.mjs', `throw new Error('boom at import')`)
  write(
    'node_modules/search-layer-provider-foo/package.json',
    JSON.stringify({
      name: 'search-layer-provider-foo',
      type: 'module',
      exports: { '.': { types: './x.d.ts', import: './dist/index.js' } },
    }),
  )
  write('node_modules/search-layer-provider-foo/dist/index.js', `export default ${definitionSource('foo-pkg')}`)
  return dir
}

describe('loadProviderPlugins', () => {
  const dir = fixture()

  it('loads a default export by absolute path, an array of them, and a package by name', async () => {
    const loaded = await loadProviderPlugins(
      [join(dir, 'one.mjs'), join(dir, 'many.mjs'), 'search-layer-provider-foo'],
      {
        resolveFrom: [join(dir, 'sub', 'dir')],
      },
    )
    expect(loaded.map((d) => d.id)).toEqual(['foo', 'foo-a', 'foo-b', 'foo-pkg'])
  })

  it.each([
    ['named.mjs', /has no default export; export a provider definition/],
    [
      'broken.mjs',
      /plug-in ".*broken.mjs" \(listed in \/cfg.json\) is not a valid provider definition: `capabilities.0`/,
    ],
    ['throws.mjs', /failed to load: boom at import/],
  ])('%s is a ConfigError saying what is wrong', async (file, message) => {
    const error = await loadProviderPlugins([join(dir, file)], { file: '/cfg.json' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as Error).message).toMatch(message)
  })

  it('names a package that is not installed, and refuses relative paths', async () => {
    await expect(loadProviderPlugins(['search-layer-provider-missing'], { resolveFrom: [dir] })).rejects.toThrow(
      /plug-in "search-layer-provider-missing" is not installed where it can be found .*npm install search-layer-provider-missing/,
    )
    await expect(loadProviderPlugins(['./one.mjs'])).rejects.toThrow(/not a relative one/)
  })
})
