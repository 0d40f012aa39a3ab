import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ConfigError } from '@search-layer/core'
import { afterEach, describe, expect, it } from 'vitest'
import { loadProviders } from './providers.js'

const pluginSource = (id: string) => `export default {
  id: '${id}', label: '${id}', docsUrl: 'https://${id}.example/docs',
  env: { apiKey: [], baseUrl: 'X_URL' }, defaultBaseUrl: 'https://${id}.example', keyless: true,
  capabilities: ['web'], priority: 60, rateLimit: { perSecond: 1, burst: 1, maxConcurrent: 1 }, cost: {},
  create: () => ({ name: '${id}', isConfigured: () => true, search: async () => ({ results: [] }) }),
}`

/** A directory with `node_modules/<name>` holding a plug-in whose provider id is `id`. */
function withPackage(name: string, id: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'sl-cli-providers-'))
  const root = join(dir, 'node_modules', name)
  mkdirSync(root, { recursive: true })
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name, type: 'module', main: 'index.js' }))
  writeFileSync(join(root, 'index.js'), pluginSource(id))
  return dir
}

const envFor = (configDir: string, plugins: string[]) => {
  writeFileSync(join(configDir, 'config.json'), JSON.stringify({ plugins }))
  return { HOME: configDir, SEARCH_LAYER_CONFIG: join(configDir, 'config.json') }
}

const before = process.cwd()
afterEach(() => process.chdir(before))

describe('loadProviders: where plug-ins come from', () => {
  it('loads a package installed beside the config file', async () => {
    const configDir = withPackage('search-layer-provider-beside', 'beside')
    const providers = await loadProviders(envFor(configDir, ['search-layer-provider-beside']))
    expect(providers.map((p) => p.id)).toContain('beside')
  })

  it("never loads one from the working directory's node_modules (an untrusted checkout)", async () => {
    const checkout = withPackage('search-layer-provider-planted', 'planted')
    const configDir = mkdtempSync(join(tmpdir(), 'sl-cli-config-'))
    process.chdir(checkout)
    const error = await loadProviders(envFor(configDir, ['search-layer-provider-planted'])).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as Error).message).toMatch(
      /plug-in "search-layer-provider-planted" \(listed in .*config.json\) is not installed where it can be found/,
    )
  })

  it('refuses "../evil" in the config file, naming the key and what it takes', async () => {
    const configDir = withPackage('search-layer-provider-beside', 'beside')
    const error = await loadProviders(envFor(configDir, ['../evil'])).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as Error).message).toMatch(
      /config.json: field `plugins.0` is invalid \("\.\.\/evil" is not a package name or an absolute path\); expected a list of npm package names/,
    )
  })
})
