import { execFileSync } from 'node:child_process'
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
  write('node_modules/@acme/provider-bar/package.json', JSON.stringify({ name: '@acme/provider-bar', main: 'i.mjs' }))
  write('node_modules/@acme/provider-bar/i.mjs', `export default ${definitionSource('bar-scoped')}`)
  write('node_modules/escaping/package.json', JSON.stringify({ name: 'escaping', main: '../../one.mjs' }))
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
  })

  it.each([
    './one.mjs',
    '../evil',
    '..',
    '.hidden',
    'foo/../../evil',
    '@acme/../../evil',
    '@acme/provider-bar/../../x',
    'search-layer-provider-foo/dist/index.js',
    'Search-Layer-Provider-Foo',
    'two words',
    'C:evil',
    '',
    `a${'b'.repeat(214)}`,
  ])('refuses %j before loading anything, naming the "plugins" key and what it takes', async (specifier) => {
    const error = await loadProviderPlugins([join(dir, 'throws.mjs'), specifier], {
      resolveFrom: [dir],
      file: '/cfg.json',
    }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ConfigError)
    expect(error).toMatchObject({ field: 'plugins', file: '/cfg.json' })
    expect((error as Error).message).toContain(
      `plug-in "${specifier}" (listed in /cfg.json): "plugins" takes npm package names (like "search-layer-provider-foo" or "@scope/provider-foo") or absolute paths`,
    )
  })

  it('loads a scoped package, and refuses a package whose entry points outside it', async () => {
    const loaded = await loadProviderPlugins(['@acme/provider-bar'], { resolveFrom: [dir] })
    expect(loaded.map((d) => d.id)).toEqual(['bar-scoped'])
    await expect(loadProviderPlugins(['escaping'], { resolveFrom: [dir] })).rejects.toThrow(
      /plug-in "escaping": its package.json points outside the package/,
    )
  })

  it.runIf(process.platform !== 'win32')('says why a package.json that is a pipe or huge is not read', async () => {
    const root = mkdtempSync(join(tmpdir(), 'sl-plugins-manifest-'))
    mkdirSync(join(root, 'node_modules', 'piped'), { recursive: true })
    execFileSync('mkfifo', [join(root, 'node_modules', 'piped', 'package.json')]) // no writer: a read would wait
    mkdirSync(join(root, 'node_modules', 'huge'), { recursive: true })
    writeFileSync(
      join(root, 'node_modules', 'huge', 'package.json'),
      `{"main": "i.mjs", "x": "${'x'.repeat(1 << 20)}"}`,
    )
    await expect(loadProviderPlugins(['piped'], { resolveFrom: [root] })).rejects.toThrow(
      /plug-in "piped": its package.json cannot be read: not a regular file\./,
    )
    await expect(loadProviderPlugins(['huge'], { resolveFrom: [root] })).rejects.toThrow(
      /plug-in "huge": its package.json cannot be read: larger than 1 MiB\./,
    )
  })

  it("resolves names beside the config file, never from the working directory's node_modules", async () => {
    const configDir = mkdtempSync(join(tmpdir(), 'sl-plugins-config-'))
    const before = process.cwd()
    process.chdir(dir)
    try {
      const error = await loadProviderPlugins(['search-layer-provider-foo'], {
        file: join(configDir, 'config.json'),
      }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(ConfigError)
      expect((error as Error).message).toMatch(/is not installed where it can be found \(looked from /)
      expect((error as Error).message).not.toContain(dir)
      const beside = await loadProviderPlugins(['search-layer-provider-foo'], { file: join(dir, 'config.json') })
      expect(beside.map((d) => d.id)).toEqual(['foo-pkg'])
    } finally {
      process.chdir(before)
    }
  })
})
