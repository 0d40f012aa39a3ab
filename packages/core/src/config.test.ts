import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ConfigError } from './errors.js'
import {
  DEFAULT_BASE_URLS,
  DEFAULT_GROK_MODEL,
  configFilePaths,
  describeConfig,
  resolveConfig,
  resolveServiceConfig,
} from './config.js'

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
    expect(config.brave.baseUrl).toBe(DEFAULT_BASE_URLS.brave)
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
    const text = JSON.stringify(describeConfig(config))
    expect(text).not.toContain(secret)
    expect(text).not.toContain(secret.slice(-4))
    expect(text).not.toContain('ghp_secret')
    expect(text).not.toContain('pw@')
    expect(text).not.toContain('zzz')
    const brave = describeConfig(config).find((d) => d.name === 'brave')
    expect(brave).toMatchObject({
      configured: true,
      keySource: 'env:BRAVE_API_KEY',
      key: `set (${secret.length} chars)`,
    })
    expect(describeConfig(config).find((d) => d.name === 'exa')).toMatchObject({ configured: false, key: null })
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
    expect(resolveServiceConfig('brave', { env })).toMatchObject({ apiKey: 'BSA-one-two-three' })
    expect(() => resolveServiceConfig('exa', { env })).toThrow(/exa base URL/)
  })
})
