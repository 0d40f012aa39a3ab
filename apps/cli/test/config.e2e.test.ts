import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { useEmulator } from '@search-layer/testkit/vitest'
import { describe, expect, it } from 'vitest'
import { runBin } from './_run.js'

const emu = useEmulator()

const withoutLlm = () => Object.fromEntries(Object.entries(emu.env).filter(([k]) => !k.startsWith('SEARCH_LAYER_LLM_')))
const tmp = (prefix: string) => mkdtempSync(join(tmpdir(), prefix))

/** A home whose ~/.config/search-layer/config.json holds `text`, with the file mode given. */
function homeWithConfig(text: string, mode = 0o600) {
  const home = tmp('sl-cli-config-')
  const file = join(home, '.config', 'search-layer', 'config.json')
  mkdirSync(join(file, '..'), { recursive: true })
  writeFileSync(file, text)
  chmodSync(file, mode)
  return { home, file }
}

const searchEnv = (home: string, extra: Record<string, string> = {}) => ({
  ...withoutLlm(),
  HOME: home,
  SEARCH_LAYER_CACHE_DIR: tmp('sl-cli-cache-'),
  SEARCH_LAYER_RATE_LIMITS: 'off',
  ...extra,
})

type Json = {
  providers: Record<string, { status: string; reason?: string }>
  warnings: string[]
}

describe('a broken config file next to valid keys in the environment', () => {
  it.each([
    ['{\n  "brave": {"apiKey": "BSAfilekey0123456789"}\n  "exa": "x"\n}', 'is not valid JSON at line 3, column 3'],
    ['{"tavily": ["k"]}', 'field `tavily` is invalid'],
  ])('%j: search runs on the environment keys and names the file (exit 0)', async (text, message) => {
    const { home, file } = homeWithConfig(text)
    const r = await runBin(['rust async', '--mode', 'deep', '--intent', 'none', '--json'], searchEnv(home))
    expect(r.code).toBe(0)
    const out = JSON.parse(r.stdout) as Json
    expect(['brave', 'exa', 'tavily', 'grok'].map((name) => out.providers[name]?.status)).toEqual([
      'ok',
      'ok',
      'ok',
      'ok',
    ])
    expect(r.stderr).toContain(`search-layer search: error: Config file ${file}`)
    expect(r.stderr).toContain(message)
    expect(r.stderr).not.toContain('filekey')
    expect(out.warnings.join('\n')).toContain(message)
  })

  it('with no key anywhere else: exit 2 naming the file, line and column, not "no provider is configured"', async () => {
    const { home, file } = homeWithConfig('{"brave": "BSAfilekey0123456789",, }')
    const r = await runBin(['rust async'], { HOME: home })
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(`Config file ${file} is not valid JSON at line 1, column 34`)
    expect(r.stderr).not.toContain('no search provider is configured')
    expect(r.stderr).not.toContain('filekey')
    expect(r.stderr).not.toContain('    at ')
  })

  it('providers shows what still works, names the problem and exits 2', async () => {
    const { home, file } = homeWithConfig('{"brave": 12}')
    const r = await runBin(['providers'], { HOME: home, EXA_API_KEY: 'exa-key-0123456789' })
    expect(r.code).toBe(2)
    expect(r.stdout).toMatch(/exa\s+yes/)
    expect(r.stdout).toMatch(/brave\s+invalid/)
    expect(r.stderr).toContain(`Config file ${file}: field \`brave\` is invalid`)
  })
})

describe('a malformed *_API_URL', () => {
  it.each([
    ['BRAVE_API_URL', 'brave'],
    ['EXA_API_URL', 'exa'],
    ['TAVILY_API_URL', 'tavily'],
    ['GROK_API_URL', 'grok'],
  ])('%s=not a url: %s is misconfigured (not "set …_API_KEY"), the others search, exit 0', async (variable, name) => {
    const r = await runBin(
      ['rust async', '--mode', 'deep', '--intent', 'none', '--json'],
      searchEnv(tmp('sl-cli-home-'), { [variable]: 'not a url' }),
    )
    expect(r.code).toBe(0)
    const out = JSON.parse(r.stdout) as Json
    expect(out.providers[name]).toMatchObject({ status: 'skipped', reason: expect.stringMatching(/^misconfigured: /) })
    expect(out.providers[name]!.reason).toContain(`env:${variable} ("not a url") is not a URL; expected an http(s) URL`)
    expect(out.providers[name]!.reason).not.toMatch(/set \w+_API_KEY/)
    for (const other of ['brave', 'exa', 'tavily', 'grok'].filter((p) => p !== name))
      expect(out.providers[other]!.status).toBe('ok')
    expect(r.stderr).toContain(`search-layer search: error: ${name} base URL from env:${variable} ("not a url")`)
    expect(r.stdout + r.stderr).not.toContain(emu.keys[name as 'brave'])
  })
})

describe('SEARCH_LAYER_CONFIG naming a file that does not exist', () => {
  it.each([[['rust async']], [['providers']], [['serve', '--port', '0']], [['mcp']]])(
    '%j exits 2 naming the variable and the path',
    async (argv) => {
      const missing = join(tmp('sl-cli-home-'), 'nope.json')
      const r = await runBin(argv, searchEnv(tmp('sl-cli-home-'), { SEARCH_LAYER_CONFIG: missing }))
      expect(r.code).toBe(2)
      expect(r.stderr).toContain(
        `configuration error: SEARCH_LAYER_CONFIG=${missing} names a config file that does not exist`,
      )
      expect(emu.requests).toHaveLength(0)
    },
  )
})

describe.skipIf(process.platform === 'win32')('a config file holding keys that others can read', () => {
  it.each([
    [0o644, 1],
    [0o640, 1],
    [0o600, 0],
  ])('mode %o: %i warning suggesting chmod 600, and the keys still work', async (mode, warnings) => {
    const { home, file } = homeWithConfig(JSON.stringify({ brave: { apiKey: emu.keys.brave } }), mode)
    const env = searchEnv(home, { BRAVE_API_KEY: '' })
    const r = await runBin(['rust async', '--source', 'brave', '--intent', 'none', '--json'], env)
    expect(r.code).toBe(0)
    expect((JSON.parse(r.stdout) as Json).providers.brave!.status).toBe('ok')
    const lines = r.stderr.split('\n').filter((l) => l.includes(`chmod 600 ${file}`))
    expect(lines).toHaveLength(warnings)
    if (warnings) expect(lines[0]).toMatch(/^search-layer search: warning: Config file .* can be read by other users/)
    expect(r.stderr).not.toContain(emu.keys.brave)
    const providers = await runBin(['providers'], { HOME: home })
    expect(providers.code).toBe(0)
    expect(providers.stderr.split('\n').filter((l) => l.includes(`chmod 600 ${file}`))).toHaveLength(warnings)
  })
})
