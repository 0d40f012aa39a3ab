import { chmodSync, mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ConfigError } from './errors.js'
import {
  type ResolveConfigOptions,
  type ServiceSpec,
  configFilePaths,
  GITHUB_SERVICE,
  configuredPlugins,
  describeConfig,
  keylessSourcesEnabled,
  readConfigFiles,
  inspectConfig as inspectAll,
  resolveConfig as resolveAll,
  resolveServiceConfig as resolveService,
} from './config.js'

// The four built-in providers' config part, as their packages define it (core cannot import them).
const SPECS = {
  brave: {
    id: 'brave',
    env: { apiKey: ['BRAVE_API_KEY'], baseUrl: 'BRAVE_API_URL' },
    defaultBaseUrl: 'https://api.search.brave.com',
  },
  exa: { id: 'exa', env: { apiKey: ['EXA_API_KEY'], baseUrl: 'EXA_API_URL' }, defaultBaseUrl: 'https://api.exa.ai' },
  tavily: {
    id: 'tavily',
    env: { apiKey: ['TAVILY_API_KEY'], baseUrl: 'TAVILY_API_URL' },
    defaultBaseUrl: 'https://api.tavily.com',
  },
  grok: {
    id: 'grok',
    env: { apiKey: ['XAI_API_KEY', 'GROK_API_KEY'], baseUrl: 'GROK_API_URL', model: 'GROK_MODEL' },
    defaultBaseUrl: 'https://api.x.ai/v1',
    defaultModel: 'grok-4.3',
  },
} satisfies Record<string, ServiceSpec>
const DEFAULT_GROK_MODEL = SPECS.grok.defaultModel

type Name = keyof typeof SPECS | 'github'
const specOf = (name: Name): ServiceSpec => (name === 'github' ? GITHUB_SERVICE : SPECS[name])
const DEFAULT_BASE_URLS = Object.fromEntries(
  (['brave', 'exa', 'tavily', 'grok', 'github'] as const).map((n) => [n, specOf(n).defaultBaseUrl]),
) as Record<Name, string>
const SERVICE_URL_ENV = Object.fromEntries(
  (['brave', 'exa', 'tavily', 'grok', 'github'] as const).map((n) => [n, specOf(n).env.baseUrl]),
) as Record<Name, string>

// The tests read services by id at the top level (the shape before services came from definitions).
type Flat = Record<Name, ReturnType<typeof resolveService>> & { files: string[]; all: ReturnType<typeof resolveAll> }
const flat = (config: ReturnType<typeof resolveAll>): Flat =>
  ({ ...config.services, github: config.github, files: config.files, all: config }) as Flat
function resolveConfig(options: ResolveConfigOptions = {}): Flat {
  return flat(resolveAll({ ...options, services: Object.values(SPECS) }))
}
function inspectConfig(options: ResolveConfigOptions = {}) {
  const { config, problems } = inspectAll({ ...options, services: Object.values(SPECS) })
  return { config: flat(config), problems }
}
const resolveServiceConfig = (name: Name | ServiceSpec, options: ResolveConfigOptions = {}) =>
  resolveService(typeof name === 'string' ? specOf(name) : name, options)

function home(files: Record<string, unknown> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'sl-config-'))
  for (const [rel, content] of Object.entries(files)) {
    const path = join(dir, rel)
    mkdirSync(join(path, '..'), { recursive: true })
    writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content))
  }
  return dir
}

const ours = '.config/search-layer/config.json'
const openclaw = '.openclaw/credentials/search.json'

describe('resolveConfig precedence', () => {
  it('uses defaults when nothing is configured', () => {
    const config = resolveConfig({ env: {}, homeDir: home() })
    expect(config.brave.apiKey).toBeUndefined()
    expect(config.brave.baseUrl).toBe(SPECS.brave.defaultBaseUrl)
    expect(config.grok.model).toBe(DEFAULT_GROK_MODEL)
    expect(config.grok.baseUrl).toBe('https://api.x.ai/v1')
    expect(config.files).toEqual([])
  })

  it('options > env > config file > openclaw credentials', () => {
    const dir = home({
      [ours]: {
        exa: { apiKey: 'exa-from-file' },
        tavily: 'tvly-from-file',
        grok: { apiKey: 'grok-file', model: 'file-model' },
      },
      [openclaw]: {
        exa: 'exa-from-openclaw',
        tavily: 'tvly-openclaw',
        brave: 'brave-openclaw',
        grok: { apiUrl: 'https://proxy.example/v1', apiKey: 'g-oc', model: 'oc-model' },
      },
    })
    const config = resolveConfig({
      env: { EXA_API_KEY: 'exa-from-env', GROK_MODEL: 'env-model' },
      homeDir: dir,
      overrides: { exa: { apiKey: 'exa-from-options' } },
    })
    expect(config.exa).toMatchObject({ apiKey: 'exa-from-options', apiKeySource: 'options' })
    expect(config.tavily).toMatchObject({ apiKey: 'tvly-from-file', apiKeySource: `file:${join(dir, ours)}` })
    expect(config.brave).toMatchObject({ apiKey: 'brave-openclaw', apiKeySource: `file:${join(dir, openclaw)}` })
    expect(config.grok).toMatchObject({ apiKey: 'grok-file', model: 'env-model', baseUrl: 'https://proxy.example/v1' })
    const envOnly = resolveConfig({ env: { EXA_API_KEY: 'exa-from-env' }, homeDir: dir })
    expect(envOnly.exa.apiKey).toBe('exa-from-env')
  })

  it('reads keys at call time, not at import', () => {
    const env: Record<string, string> = {}
    const dir = home()
    expect(resolveConfig({ env, homeDir: dir }).brave.apiKey).toBeUndefined()
    env.BRAVE_API_KEY = 'now-set'
    expect(resolveConfig({ env, homeDir: dir }).brave.apiKey).toBe('now-set')
  })

  it('sees a config file written, edited and removed between calls', () => {
    const dir = home()
    const file = join(dir, ours)
    expect(resolveConfig({ env: {}, homeDir: dir }).brave.apiKey).toBeUndefined()
    mkdirSync(join(file, '..'), { recursive: true })
    writeFileSync(file, JSON.stringify({ brave: 'first-key' }))
    expect(resolveConfig({ env: {}, homeDir: dir }).brave.apiKey).toBe('first-key')
    writeFileSync(file, JSON.stringify({ brave: 'second-longer-key' }))
    expect(resolveConfig({ env: {}, homeDir: dir }).brave.apiKey).toBe('second-longer-key')
    writeFileSync(file, '{ not json')
    expect(() => resolveConfig({ env: {}, homeDir: dir })).toThrowError(ConfigError)
    rmSync(file)
    expect(resolveConfig({ env: {}, homeDir: dir })).toMatchObject({ files: [] })
  })

  it('resolves against one reading of the files until the next reading', () => {
    const dir = home({ [ours]: { brave: 'first-key', keyless: false } })
    const env = {}
    const reading = readConfigFiles({ env, homeDir: dir })
    writeFileSync(join(dir, ours), JSON.stringify({ brave: 'second-key' }))
    // What a search read when it started is what all its calls use…
    expect(resolveServiceConfig('brave', { env, homeDir: dir, reading }).apiKey).toBe('first-key')
    expect(resolveServiceConfig('exa', { env, homeDir: dir, reading }).apiKey).toBeUndefined()
    expect(keylessSourcesEnabled({ env, homeDir: dir, reading })).toBe(false)
    expect(inspectAll({ env, homeDir: dir, reading, services: [SPECS.brave] }).config.services.brave!.apiKey).toBe(
      'first-key',
    )
    // …overrides still win…
    expect(
      resolveServiceConfig('brave', { env, homeDir: dir, reading, overrides: { brave: { apiKey: 'explicit' } } })
        .apiKey,
    ).toBe('explicit')
    // …and the next reading, or a call without one, sees the edit.
    expect(resolveServiceConfig('brave', { env, homeDir: dir }).apiKey).toBe('second-key')
    const next = readConfigFiles({ env, homeDir: dir })
    expect(resolveServiceConfig('brave', { env, homeDir: dir, reading: next }).apiKey).toBe('second-key')
    expect(keylessSourcesEnabled({ env, homeDir: dir, reading: next })).toBe(true)
  })

  it('ignores a reading made for another env or home', () => {
    const dir = home({ [ours]: { brave: 'file-key' } })
    const reading = readConfigFiles({ env: {}, homeDir: dir })
    expect(resolveServiceConfig('brave', { env: { BRAVE_API_KEY: 'env-key' }, homeDir: dir, reading }).apiKey).toBe(
      'env-key',
    )
    expect(resolveServiceConfig('brave', { env: {}, homeDir: home(), reading }).apiKey).toBeUndefined()
  })

  it.each([
    [{ XAI_API_KEY: 'xai-1', GROK_API_KEY: 'grok-1' }, 'xai-1'],
    [{ GROK_API_KEY: 'grok-1' }, 'grok-1'],
  ])('grok key aliases %j', (env, expected) => {
    expect(resolveConfig({ env, homeDir: home() }).grok.apiKey).toBe(expected)
  })

  it('GITHUB_TOKEN wins over GH_TOKEN; base URL overrides lose trailing slashes', () => {
    const config = resolveConfig({
      env: { GH_TOKEN: 'b', GITHUB_TOKEN: 'a', GITHUB_API_URL: 'http://127.0.0.1:9/github/' },
      homeDir: home(),
    })
    expect(config.github.apiKey).toBe('a')
    expect(config.github.baseUrl).toBe('http://127.0.0.1:9/github')
  })

  it('SEARCH_LAYER_CONFIG points at another file', () => {
    const dir = home({ 'custom.json': { brave: { apiKey: 'custom-brave' } } })
    const env = { SEARCH_LAYER_CONFIG: join(dir, 'custom.json') }
    expect(configFilePaths({ env, homeDir: dir })[0]).toBe(join(dir, 'custom.json'))
    expect(resolveConfig({ env, homeDir: dir }).brave.apiKey).toBe('custom-brave')
  })

  it('an empty XDG_CONFIG_HOME or HOME is unset, never a path relative to the working directory', () => {
    expect(configFilePaths({ env: { XDG_CONFIG_HOME: '/xdg' }, homeDir: '/h' })[0]).toBe(
      join('/xdg', 'search-layer', 'config.json'),
    )
    expect(configFilePaths({ env: { XDG_CONFIG_HOME: '' }, homeDir: '/h' })[0]).toBe(
      join('/h', '.config', 'search-layer', 'config.json'),
    )
    expect(configFilePaths({ env: { HOME: '' } })[0]).toBe(join(homedir(), '.config', 'search-layer', 'config.json'))
  })
})

describe('malformed configuration is a clear ConfigError', () => {
  it('names the file for invalid JSON', () => {
    const dir = home({ [ours]: '{"exa": ' })
    expect(() => resolveConfig({ env: {}, homeDir: dir })).toThrowError(ConfigError)
    expect(() => resolveConfig({ env: {}, homeDir: dir })).toThrowError(join(dir, ours))
  })

  it('names the file and the field for a wrong type', () => {
    const dir = home({ [openclaw]: { grok: { apiUrl: 42 } } })
    try {
      resolveConfig({ env: {}, homeDir: dir })
      expect.unreachable()
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError)
      expect((error as ConfigError).file).toBe(join(dir, openclaw))
      expect((error as ConfigError).field).toBe('grok.apiUrl')
      expect((error as Error).message).toContain('grok.apiUrl')
    }
  })

  it('rejects a non-http base URL naming where it came from', () => {
    expect(() => resolveConfig({ env: { EXA_API_URL: 'ftp://x' }, homeDir: home() })).toThrowError(/env:EXA_API_URL/)
    expect(() => resolveConfig({ env: { EXA_API_URL: 'not a url' }, homeDir: home() })).toThrowError(ConfigError)
  })
})

describe('describeConfig', () => {
  it('never contains a key, not even part of it', () => {
    const secret = 'BSAverysecretbravekey123456'
    const config = resolveConfig({
      env: {
        BRAVE_API_KEY: secret,
        GITHUB_TOKEN: 'ghp_secrettoken1234567890',
        TAVILY_API_URL: 'https://user:pw@proxy.test/?key=zzz',
      },
      homeDir: home(),
    })
    const text = JSON.stringify(describeConfig(config.all))
    expect(text).not.toContain(secret)
    expect(text).not.toContain(secret.slice(-4))
    expect(text).not.toContain('ghp_secret')
    expect(text).not.toContain('pw@')
    expect(text).not.toContain('zzz')
    const brave = describeConfig(config.all).find((d) => d.name === 'brave')
    expect(brave).toMatchObject({
      configured: true,
      keySource: 'env:BRAVE_API_KEY',
      key: `set (${secret.length} chars)`,
    })
    expect(describeConfig(config.all).find((d) => d.name === 'exa')).toMatchObject({ configured: false, key: null })
  })
})

describe('key pools', () => {
  it('reads a comma list in an env variable and a list in the config file as a pool, first key first', () => {
    const dir = home({ [ours]: { exa: { apiKey: ['exa-one-0001', 'exa-two-0002'] } } })
    const config = resolveConfig({ env: { BRAVE_API_KEY: 'BSA-k1-0001, BSA-k2-0002,' }, homeDir: dir })
    expect(config.brave).toMatchObject({ apiKey: 'BSA-k1-0001', apiKeys: ['BSA-k1-0001', 'BSA-k2-0002'] })
    expect(config.exa).toMatchObject({ apiKey: 'exa-one-0001', apiKeys: ['exa-one-0001', 'exa-two-0002'] })
    expect(config.tavily.apiKeys).toBeUndefined()
  })

  it('treats a setting of only commas as no key', () => {
    expect(resolveConfig({ env: { BRAVE_API_KEY: ' , ' }, homeDir: home() }).brave.apiKey).toBeUndefined()
  })

  it('describes a pool by labels that hold no part of any key', () => {
    const keys = ['BSAfirstsecretkey0001', 'BSAsecondsecretkey0002']
    const config = resolveConfig({ env: { BRAVE_API_KEY: keys.join(',') }, homeDir: home() })
    const brave = describeConfig(config.all).find((d) => d.name === 'brave')!
    expect(brave.key).toMatch(/^2 keys: key #1 \(…[0-9a-f]{4}\), key #2 \(…[0-9a-f]{4}\)$/)
    expect(brave.keyLabels).toHaveLength(2)
    const text = JSON.stringify(brave)
    for (const key of keys) for (let i = 0; i + 5 <= key.length; i++) expect(text).not.toContain(key.slice(i, i + 5))
  })

  it('names the field when a config-file list holds something other than strings', () => {
    const dir = home({ [ours]: { brave: { apiKey: ['ok-key', 42] } } })
    const problem = inspectConfig({ env: {}, homeDir: dir }).problems[0]
    expect(problem).toMatchObject({ kind: 'file_schema', field: 'brave.apiKey.1' })
  })
})

describe('resolveServiceConfig', () => {
  it('gives what resolveConfig gives for that service', () => {
    const env = {
      HOME: '/nonexistent-home',
      BRAVE_API_KEY: 'BSA-one-two-three',
      EXA_API_URL: 'http://127.0.0.1:1/exa/',
      GROK_MODEL: 'grok-x',
    }
    const all = resolveConfig({ env })
    for (const name of ['brave', 'exa', 'tavily', 'grok', 'github'] as const)
      expect(resolveServiceConfig(name, { env })).toEqual(all[name])
  })

  it("another service's malformed URL is not this service's error", () => {
    const env = { HOME: '/nonexistent-home', BRAVE_API_KEY: 'BSA-one-two-three', EXA_API_URL: 'not a url' }
    expect(() => resolveConfig({ env })).toThrow(/exa base URL/)
    expect(resolveServiceConfig(SPECS.brave, { env })).toMatchObject({ apiKey: 'BSA-one-two-three' })
    expect(() => resolveServiceConfig(SPECS.exa, { env })).toThrow(/exa base URL/)
  })
})

describe('config file keys come from the registry', () => {
  it('any provider id is a key; a plug-in provider resolves like a built-in one', () => {
    const dir = home({ [ours]: { 'my-news': { apiKey: 'news-key', apiUrl: 'http://127.0.0.1:9/news/' } } })
    const spec: ServiceSpec = {
      id: 'my-news',
      env: { apiKey: ['MY_NEWS_KEY'], baseUrl: 'MY_NEWS_URL' },
      defaultBaseUrl: 'https://news.example',
    }
    expect(resolveServiceConfig(spec, { env: {}, homeDir: dir })).toMatchObject({
      apiKey: 'news-key',
      apiKeySource: `file:${join(dir, ours)}`,
      baseUrl: 'http://127.0.0.1:9/news',
    })
    expect(resolveServiceConfig(spec, { env: { MY_NEWS_KEY: 'from-env' }, homeDir: dir }).apiKey).toBe('from-env')
  })

  it('reads the plugins list', () => {
    const dir = home({ [ours]: { plugins: ['search-layer-provider-foo', '/abs/path/plugin.js'], brave: 'k' } })
    expect(configuredPlugins({ env: {}, homeDir: dir })).toEqual({
      plugins: ['search-layer-provider-foo', '/abs/path/plugin.js'],
      file: join(dir, ours),
    })
    expect(configuredPlugins({ env: {}, homeDir: home() }).plugins).toEqual([])
  })

  it.each([
    [{ exa: 5 }, 'exa', 'expected a key, or an object with apiKey, apiUrl, model or token'],
    [{ exa: { apiKey: 5 } }, 'exa.apiKey', 'expected a key, or a list of keys'],
  ])('a config entry %j names the field and says what it takes', (file, field, expected) => {
    const { problems } = inspectConfig({ env: {}, homeDir: home({ [ours]: file }) })
    const problem = problems.find((p) => p.field === field)
    expect(problem?.message).toContain(expected)
    expect(problem?.message).not.toContain('Invalid input')
  })

  it('a malformed plugins list is a ConfigError saying what is expected', () => {
    const dir = home({ [ours]: { plugins: 'search-layer-provider-foo' } })
    expect(() => configuredPlugins({ env: {}, homeDir: dir })).toThrowError(
      /field `plugins` is invalid .*expected a list of npm package names \(like "search-layer-provider-foo".*\) or absolute paths/,
    )
  })

  it.each(['../evil', './here.mjs', 'foo/../../evil'])(
    "a plugins entry %j is a ConfigError naming it, and the file's keys still work",
    (entry) => {
      const dir = home({ [ours]: { plugins: ['search-layer-provider-foo', entry], brave: 'BSAfilekey0123456789' } })
      const error = (() => {
        try {
          configuredPlugins({ env: {}, homeDir: dir })
        } catch (caught) {
          return caught
        }
      })()
      expect(error).toBeInstanceOf(ConfigError)
      expect(error).toMatchObject({ field: 'plugins.1' })
      expect((error as Error).message).toContain(
        `field \`plugins.1\` is invalid (${JSON.stringify(entry)} is not a package name or an absolute path); expected a list of npm package names`,
      )
      const inspected = inspectConfig({ env: {}, homeDir: dir })
      expect(inspected.problems.find((p) => p.field === 'plugins.1')).toMatchObject({ kind: 'file_schema' })
      expect(inspected.config.brave.apiKey).toBe('BSAfilekey0123456789')
    },
  )
})

describe('a malformed configuration is named and the rest keeps working', () => {
  it.each([
    ['{"exa": ', 1, 9],
    ['{\n  "brave": {"apiKey": "BSAfilekey0123456789"}\n  "exa": "x"\n}', 3, 3],
    ['{"brave": "k",}', 1, 15],
    ["{'brave': 'k'}", 1, 2],
    ['{"brave": BSAfilekey0123456789}', 1, 11],
  ])('invalid JSON %j: file, line %i and column %i named; env keys still used', (text, line, column) => {
    const dir = home({ [ours]: text })
    const file = join(dir, ours)
    const env = { EXA_API_KEY: 'exa-from-env' }
    const { config, problems } = inspectConfig({ env, homeDir: dir })
    expect(config.exa.apiKey).toBe('exa-from-env')
    expect(problems).toEqual([expect.objectContaining({ kind: 'file_syntax', severity: 'error', file, line, column })])
    expect(problems[0]!.message).toContain(`${file} is not valid JSON at line ${line}, column ${column}`)
    expect(problems[0]!.message).not.toContain('filekey')
    expect(resolveServiceConfig('exa', { env, homeDir: dir })).toMatchObject({ apiKey: 'exa-from-env' })
    expect(() => resolveServiceConfig('brave', { env, homeDir: dir })).toThrowError(
      new RegExp(
        `brave has no key \\(set BRAVE_API_KEY\\), and Config file ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`,
      ),
    )
  })

  it.each([
    [{ brave: 12, exa: 'exa-from-file' }, 'brave', ['brave'], 'a key string, or an object'],
    [{ grok: { apiUrl: 42, apiKey: 'g' }, exa: 'exa-from-file' }, 'grok.apiUrl', ['grok'], 'expected a string'],
    [{ tavily: ['k'], exa: { apiKey: 'exa-from-file' } }, 'tavily', ['tavily'], 'a key string, or an object'],
  ])(
    'schema error %j costs only that service: names file, %s and what is allowed',
    (data, field, services, allowed) => {
      const dir = home({ [ours]: data })
      const { config, problems } = inspectConfig({ env: {}, homeDir: dir })
      expect(config.exa.apiKey).toBe('exa-from-file')
      expect(problems.filter((p) => p.severity === 'error')).toEqual([
        expect.objectContaining({ kind: 'file_schema', file: join(dir, ours), field, services }),
      ])
      expect(problems[0]!.message).toContain(`\`${field}\``)
      expect(problems[0]!.message).toContain(allowed)
      expect(resolveServiceConfig('exa', { env: {}, homeDir: dir }).apiKey).toBe('exa-from-file')
      expect(() => resolveConfig({ env: {}, homeDir: dir })).toThrowError(ConfigError)
    },
  )

  it.each([['[]'], ['"just a string"'], ['null'], ['42']])('a file that is not an object (%s) is named', (text) => {
    const dir = home({ [ours]: text })
    const { problems } = inspectConfig({ env: {}, homeDir: dir })
    expect(problems).toEqual([expect.objectContaining({ kind: 'file_schema', field: '(root)' })])
    expect(problems[0]!.message).toContain('a JSON object keyed by service')
  })

  const badUrls = ['not a url', 'ftp://mirror.example', 'api.example.com/v1', 'file:///etc/passwd', 'http//x']
  const urlCases = (['brave', 'exa', 'tavily', 'grok', 'github'] as const).flatMap((service) =>
    badUrls.map((value) => ({ service, variable: SERVICE_URL_ENV[service], value })),
  )
  it.each(urlCases)(
    '$variable=$value names the variable, its value and what is allowed',
    ({ service, variable, value }) => {
      const env = { [variable]: value, BRAVE_API_KEY: 'brave-key', EXA_API_KEY: 'exa-key', XAI_API_KEY: 'xai-key' }
      const { config, problems } = inspectConfig({ env, homeDir: home() })
      expect(problems).toEqual([
        expect.objectContaining({ kind: 'invalid_url', severity: 'error', variable, services: [service] }),
      ])
      expect(problems[0]!.message).toContain(variable)
      expect(problems[0]!.message).toContain(JSON.stringify(value))
      expect(problems[0]!.message).toContain(`expected an http(s) URL like ${DEFAULT_BASE_URLS[service]}`)
      expect(config[service].baseUrl).toBe(DEFAULT_BASE_URLS[service])
      for (const other of ['brave', 'exa', 'tavily', 'grok', 'github'] as const) {
        if (other === service)
          expect(() => resolveServiceConfig(other, { env, homeDir: home() })).toThrowError(ConfigError)
        else expect(() => resolveServiceConfig(other, { env, homeDir: home() })).not.toThrow()
      }
      const error = (() => {
        try {
          resolveConfig({ env, homeDir: home() })
        } catch (caught) {
          return caught as ConfigError
        }
      })()
      expect(error).toMatchObject({ variable })
    },
  )

  it('a malformed URL is shown without its credentials', () => {
    const env = { TAVILY_API_URL: 'ftp://user:hunter2@proxy.test/?key=zzz' }
    const { problems } = inspectConfig({ env, homeDir: home() })
    expect(problems[0]!.message).not.toContain('hunter2')
    expect(problems[0]!.message).not.toContain('zzz')
  })

  it('a malformed apiUrl in a file names the file and the field', () => {
    const dir = home({ [ours]: { exa: { apiKey: 'k', apiUrl: 'not a url' } } })
    const { problems } = inspectConfig({ env: {}, homeDir: dir })
    expect(problems.filter((p) => p.severity === 'error')).toEqual([
      expect.objectContaining({ kind: 'invalid_url', file: join(dir, ours), field: 'exa.apiUrl', services: ['exa'] }),
    ])
  })
})

describe('a SEARCH_LAYER_CONFIG that is no config file', () => {
  // Read whole, /dev/zero never ends and a 2 GB log takes the process down: both are refused by what they are.
  it.each<[string, string]>([
    ...(process.platform === 'linux' ? [['/dev/zero', 'not a regular file'] as [string, string]] : []),
    ['a directory', 'a directory, not a file'],
    ['a 2 MiB file', 'larger than 1 MiB'],
  ])('%s is a problem saying why it was not read', (what, why) => {
    const dir = home()
    const file = what === 'a directory' ? dir : what === 'a 2 MiB file' ? join(dir, 'big.json') : (what as string)
    if (what === 'a 2 MiB file') writeFileSync(file, `{"brave": "k"}${' '.repeat(2 * 1024 * 1024)}`)
    const env = { SEARCH_LAYER_CONFIG: file }
    expect(inspectConfig({ env, homeDir: dir }).problems).toEqual([
      expect.objectContaining({ kind: 'file_unreadable', message: `Config file ${file} cannot be read: ${why}.` }),
    ])
  })
})

describe('an explicitly set SEARCH_LAYER_CONFIG that does not exist', () => {
  it('is an error naming the variable and the path', () => {
    const dir = home()
    const missing = join(dir, 'nope', 'config.json')
    const env = { SEARCH_LAYER_CONFIG: missing, BRAVE_API_KEY: 'brave-key' }
    expect(() => resolveConfig({ env, homeDir: dir })).toThrowError(
      expect.objectContaining({ variable: 'SEARCH_LAYER_CONFIG', file: missing }),
    )
    expect(() => resolveConfig({ env, homeDir: dir })).toThrowError(`SEARCH_LAYER_CONFIG=${missing}`)
    expect(inspectConfig({ env, homeDir: dir }).problems).toEqual([
      expect.objectContaining({ kind: 'file_missing', severity: 'error', variable: 'SEARCH_LAYER_CONFIG' }),
    ])
    // A provider call with its key in the environment does not need the file.
    expect(resolveServiceConfig('brave', { env, homeDir: dir }).apiKey).toBe('brave-key')
    expect(() => resolveServiceConfig('exa', { env, homeDir: dir })).toThrowError(/set EXA_API_KEY/)
  })

  it('the default location may be missing', () => {
    expect(inspectConfig({ env: {}, homeDir: home() }).problems).toEqual([])
    expect(inspectConfig({ env: { SEARCH_LAYER_CONFIG: '' }, homeDir: home() }).problems).toEqual([])
  })
})

describe.skipIf(process.platform === 'win32')('a config file holding keys that others can read', () => {
  it.each([
    [0o644, true],
    [0o640, true],
    [0o604, true],
    [0o660, true],
    [0o600, false],
    [0o400, false],
  ])('mode %o: warns %s, suggesting chmod 600', (mode, warns) => {
    const dir = home({ [ours]: { brave: { apiKey: 'BSAkey0123456789' } } })
    const file = join(dir, ours)
    chmodSync(file, mode)
    const { config, problems } = inspectConfig({ env: {}, homeDir: dir })
    expect(config.brave.apiKey).toBe('BSAkey0123456789')
    if (!warns) expect(problems).toEqual([])
    else {
      expect(problems).toEqual([
        expect.objectContaining({ kind: 'file_permissions', severity: 'warning', file, services: ['brave'] }),
      ])
      expect(problems[0]!.message).toContain(`chmod 600 ${file}`)
      expect(problems[0]!.message).not.toContain('BSAkey')
    }
    expect(() => resolveConfig({ env: {}, homeDir: dir })).not.toThrow()
  })

  it('a readable file without keys is fine, and a chmod is seen at once', () => {
    const dir = home({ [ours]: { exa: { apiUrl: 'http://127.0.0.1:1/exa' } }, [openclaw]: { tavily: 'tvly-k' } })
    const keys = join(dir, openclaw)
    chmodSync(join(dir, ours), 0o644)
    chmodSync(keys, 0o644)
    expect(inspectConfig({ env: {}, homeDir: dir }).problems.map((p) => p.file)).toEqual([keys])
    chmodSync(keys, 0o600)
    expect(inspectConfig({ env: {}, homeDir: dir }).problems).toEqual([])
  })
})

describe('keyless sources on or off', () => {
  it.each([
    [{}, {}, true],
    [{ SEARCH_LAYER_KEYLESS: 'off' }, {}, false],
    [{ SEARCH_LAYER_KEYLESS: '0' }, {}, false],
    [{ SEARCH_LAYER_KEYLESS: 'FALSE' }, {}, false],
    [{}, { keyless: false }, false],
    [{ SEARCH_LAYER_KEYLESS: 'on' }, { keyless: false }, true],
    [{ SEARCH_LAYER_KEYLESS: '' }, { keyless: false }, false],
  ])('env %j with config file %j → %s', (env, file, enabled) => {
    expect(keylessSourcesEnabled({ env, homeDir: home({ [ours]: file }) })).toBe(enabled)
  })

  it('a value other than on/off is a ConfigError naming the variable', () => {
    const call = () => keylessSourcesEnabled({ env: { SEARCH_LAYER_KEYLESS: 'maybe' }, homeDir: home() })
    expect(call).toThrowError(ConfigError)
    expect(call).toThrowError('SEARCH_LAYER_KEYLESS="maybe" is not allowed; use on or off.')
  })

  it('a config file "keyless" that is not true or false is a ConfigError naming the field', () => {
    const call = () => keylessSourcesEnabled({ env: {}, homeDir: home({ [ours]: { keyless: 'no' } }) })
    expect(call).toThrowError(/field `keyless` is invalid .*expected true or false/)
  })

  it('"keyless" next to provider entries is not a provider and holds no key', () => {
    const dir = home({ [ours]: { keyless: false, brave: 'k' } })
    const { config, problems } = inspectConfig({ env: {}, homeDir: dir })
    expect(problems.filter((p) => p.severity === 'error')).toEqual([])
    // The file is world-readable: the warning names the entries holding keys, and "keyless" is not one.
    for (const warning of problems) expect(warning.services).toEqual(['brave'])
    expect(config.brave.apiKey).toBe('k')
  })
})

describe('the github provider and thread-fetch share one entry', () => {
  const githubProvider: ServiceSpec = { ...GITHUB_SERVICE }

  it('resolves GitHub once when a github provider is registered: same token, listed once', () => {
    const dir = home({ [ours]: { github: { token: 'ghp_fromfile1234567890' } } })
    const { config, problems } = inspectAll({ env: {}, homeDir: dir, services: [SPECS.brave, githubProvider] })
    expect(problems.filter((p) => p.severity === 'error')).toEqual([])
    expect(config.services.github!.apiKey).toBe('ghp_fromfile1234567890')
    expect(config.github).toEqual(config.services.github)
    expect(describeConfig(config).map((d) => d.name)).toEqual(['brave', 'github'])
  })

  it('a malformed GITHUB_API_URL is one problem, not two', () => {
    const env = { GITHUB_API_URL: 'not a url' }
    const { problems } = inspectAll({ env, homeDir: home(), services: [githubProvider] })
    expect(problems.map((p) => p.variable)).toEqual(['GITHUB_API_URL'])
  })
})
