import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs'
import { type Server, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type Emulator, startEmulator } from '@search-layer/testkit'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runBin } from './_run.js'

// The example plug-in package of this repository (examples/provider-example, built to dist), installed as a user
// would: a node_modules entry beside the config file that lists it by package name.
const EXAMPLE_PACKAGE = fileURLToPath(new URL('../../../examples/provider-example', import.meta.url))

let emu: Emulator
let api: Server
let apiUrl: string
beforeAll(async () => {
  emu = await startEmulator()
  // The example vendor's API on loopback: GET /search?q=&n= with a Bearer key.
  api = createServer((req, res) => {
    const q = new URL(req.url ?? '/', 'http://x').searchParams.get('q')
    res.setHeader('content-type', 'application/json')
    if (req.headers.authorization !== 'Bearer example-key-123') {
      res.statusCode = 401
      return res.end('{}')
    }
    res.end(
      JSON.stringify({ items: [{ title: `Example on ${q}`, link: 'https://example-only.test/page', summary: 'x' }] }),
    )
  })
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve))
  apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`
})
afterAll(async () => {
  await emu.close()
  await new Promise<void>((resolve) => api.close(() => resolve()))
})

function configDir(config: unknown, files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'sl-cli-plugins-'))
  mkdirSync(join(dir, 'node_modules'))
  symlinkSync(EXAMPLE_PACKAGE, join(dir, 'node_modules', 'search-layer-provider-example'), 'dir')
  writeFileSync(join(dir, 'config.json'), JSON.stringify(config))
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text)
  return dir
}

const envFor = (dir: string, extra: Record<string, string> = {}) => ({
  ...Object.fromEntries(Object.entries(emu.env).filter(([k]) => !k.startsWith('SEARCH_LAYER_LLM_'))),
  HOME: dir,
  SEARCH_LAYER_CONFIG: join(dir, 'config.json'),
  SEARCH_LAYER_CACHE_DIR: join(dir, 'cache'),
  SEARCH_LAYER_RATE_LIMITS: 'off',
  EXAMPLE_SEARCH_URL: apiUrl,
  ...extra,
})

describe('provider plug-ins from the config file (built bin)', () => {
  it('searches with the plug-in beside a built-in provider; its results are merged and tagged with its id', async () => {
    const dir = configDir({ plugins: ['search-layer-provider-example'] })
    const r = await runBin(
      ['rust async', '--json', '--source', 'example,brave', '--intent', 'none', '--mode', 'deep'],
      envFor(dir, { EXAMPLE_SEARCH_API_KEY: 'example-key-123' }),
    )
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    const res = JSON.parse(r.stdout) as {
      providers: Record<string, { status: string }>
      results: { url: string; sources: string[] }[]
    }
    expect(res.providers.example).toMatchObject({ status: 'ok' })
    expect(res.providers.brave).toMatchObject({ status: 'ok' })
    expect(res.results.find((x) => x.url === 'https://example-only.test/page')?.sources).toEqual(['example'])
    expect(res.results.some((x) => x.sources.includes('brave'))).toBe(true)
    expect(r.stdout).not.toContain('example-key-123')
  })

  it('lists the plug-in in `providers` with its own variable', async () => {
    const dir = configDir({ plugins: ['search-layer-provider-example'] })
    const r = await runBin(['providers'], envFor(dir))
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/example\s+no\s+set EXAMPLE_SEARCH_API_KEY/)
    expect(r.stdout).toMatch(/of 12 search providers configured/)
  })

  it('validates --source against the registered ids, plug-ins included', async () => {
    const dir = configDir({ plugins: ['search-layer-provider-example'] })
    const r = await runBin(['x', '--source', 'bing'], envFor(dir))
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(
      /--source takes a comma list of brave, exa, tavily, grok, .*, bocha, example \(got "bing"\)/,
    )
  })

  it.each([
    [{ plugins: ['search-layer-provider-missing'] }, {}, /plug-in "search-layer-provider-missing" .*is not installed/],
    [
      { plugins: ['BROKEN'] },
      { 'broken.mjs': 'export default { id: "Bad Id" }' },
      /is not a valid provider definition: `id`/,
    ],
    [{ plugins: 'search-layer-provider-example' }, {}, /field `plugins` is invalid/],
  ])('a broken plug-in setting %j exits 2 saying what is wrong', async (config, files, message) => {
    const dir = configDir(config, files)
    const plugins = (config as { plugins: unknown }).plugins
    if (Array.isArray(plugins) && plugins[0] === 'BROKEN')
      writeFileSync(join(dir, 'config.json'), JSON.stringify({ plugins: [join(dir, 'broken.mjs')] }))
    const r = await runBin(['x', '--json'], envFor(dir))
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(message)
    expect(r.stderr).not.toMatch(/at .*\.(ts|js):\d+/)
  })
})
