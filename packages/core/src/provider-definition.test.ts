import { describe, expect, it } from 'vitest'
import { defineProvider } from './define-provider.js'
import { ConfigError } from './errors.js'
import {
  PROVIDER_DEFINITION_DEFAULTS,
  type ProviderDefinition,
  checkProviderDefinitions,
  resolveProviderDefinition,
  keyVariableHint,
  registeredProviderIdSchema,
  validateProviderDefinition,
} from './provider-definition.js'

const base: ProviderDefinition = {
  id: 'my-news',
  label: 'My News',
  docsUrl: 'https://news.example/docs',
  env: { apiKey: ['MY_NEWS_KEY', 'NEWS_KEY'], baseUrl: 'MY_NEWS_URL' },
  defaultBaseUrl: 'https://news.example',
  capabilities: ['news', 'web'],
  priority: 50,
  rateLimit: { perSecond: 2, burst: 2, maxConcurrent: 4 },
  typicalLatencyMs: 700,
  cost: { usdPerCall: 0.001 },
  create: () => defineProvider({ definition: base, run: async () => ({ results: [] }) }),
}

describe('validateProviderDefinition', () => {
  it('accepts a complete definition, keeping every field it gives', () => {
    expect(validateProviderDefinition(base, 'plugin foo')).toEqual({
      ...base,
      keyless: false,
      routing: 'engine',
      queryFilters: [],
    })
  })

  it('accepts four fields and fills in the documented defaults', () => {
    const create = () => ({ name: 'tiny', isConfigured: () => true, search: async () => ({ results: [] }) })
    const tiny = { id: 'tiny', label: 'Tiny', capabilities: ['reference'], create }
    expect(validateProviderDefinition(tiny, 'plugin tiny')).toEqual({
      ...tiny,
      env: { apiKey: [] },
      keyless: true,
      ...PROVIDER_DEFINITION_DEFAULTS,
    })
    expect(PROVIDER_DEFINITION_DEFAULTS).toEqual({
      routing: 'engine',
      queryFilters: [],
      priority: 100,
      rateLimit: { perSecond: 1, burst: 2, maxConcurrent: 2 },
      typicalLatencyMs: 1000,
      cost: {},
    })
  })

  it.each([
    ['no fields', {}, /`id` .*`label` .*`capabilities` .*`create`/],
    ['a docsUrl that is not http(s)', { docsUrl: 'ftp://x.example' }, /`docsUrl` expected an http\(s\) URL/],
    ['a base URL variable in lower case', { env: { baseUrl: 'my_url' } }, /`env.baseUrl` expected an environment/],
    ['a zero rate', { rateLimit: { perSecond: 0, burst: 1, maxConcurrent: 1 } }, /`rateLimit.perSecond`/],
    ['a negative typical latency', { typicalLatencyMs: -5 }, /`typicalLatencyMs`/],
  ])('checks an optional field when it is given: %s', (_label, extra, message) => {
    const minimal = { id: 'tiny', label: 'Tiny', capabilities: ['web'], create: () => undefined }
    const value = Object.keys(extra).length === 0 ? extra : { ...minimal, ...extra }
    expect(() => validateProviderDefinition(value, 'x')).toThrowError(message)
  })

  it.each([
    [
      'an id with capitals',
      { ...base, id: 'MyNews' },
      /plugin foo is not a valid provider definition: `id` expected a provider id/,
    ],
    ['an unknown capability', { ...base, capabilities: ['web', 'videos'] }, /`capabilities.1`/],
    ['an unknown query filter', { ...base, queryFilters: ['site', 'inurl'] }, /`queryFilters.1`/],
    ['no create function', { ...base, create: 'nope' }, /`create` expected a function/],
    [
      'a lower-case key variable',
      { ...base, env: { ...base.env, apiKey: ['my_key'] } },
      /`env.apiKey.0` expected an environment variable name/,
    ],
    [
      'no key variable and keyless: false',
      { ...base, keyless: false, env: { ...base.env, apiKey: [] } },
      /lists no key variable in env.apiKey and is not keyless/,
    ],
    ['a non-object', 42, /`\(root\)`/],
    ['the reserved id "keyless"', { ...base, id: 'keyless' }, /provider id "keyless" is reserved/],
    ['an unknown routing', { ...base, routing: 'sometimes' }, /`routing`/],
  ])('refuses %s with a ConfigError naming the field', (_label, value, message) => {
    expect(() => validateProviderDefinition(value, 'plugin foo')).toThrowError(ConfigError)
    expect(() => validateProviderDefinition(value, 'plugin foo')).toThrowError(message)
  })

  it('accepts the id "github": its config entry is shared with thread-fetch, not reserved', () => {
    const github = { ...base, id: 'github', routing: 'vertical', capabilities: ['code'] }
    expect(validateProviderDefinition(github, 'x').id).toBe('github')
  })

  it('accepts a keyless definition without key variables', () => {
    const keyless = { ...base, keyless: true, env: { apiKey: [], baseUrl: 'MY_NEWS_URL' } }
    expect(validateProviderDefinition(keyless, 'x').keyless).toBe(true)
  })
})

describe('resolveProviderDefinition', () => {
  it('resolves a definition once: the same object each time, and a resolved one as it is', () => {
    const resolved = resolveProviderDefinition(base)
    expect(resolveProviderDefinition(base)).toBe(resolved)
    expect(resolveProviderDefinition(resolved)).toBe(resolved)
  })

  it('keeps what a definition says over the defaults', () => {
    const keyed = resolveProviderDefinition({ ...base, routing: 'vertical', priority: 5, keyless: true })
    expect([keyed.routing, keyed.priority, keyed.keyless, keyed.rateLimit]).toEqual([
      'vertical',
      5,
      true,
      base.rateLimit,
    ])
  })
})

describe('checkProviderDefinitions', () => {
  it('refuses a duplicated id, naming both origins', () => {
    expect(() => checkProviderDefinitions([base, { ...base }], ['built-in', 'search-layer-provider-foo'])).toThrowError(
      /provider id "my-news" is registered twice \(built-in and search-layer-provider-foo\)/,
    )
  })

  it('validates all but the trusted definitions, and checks every id for duplicates', () => {
    const broken = { ...base, id: 'broken', docsUrl: 'not a url' }
    expect(() => checkProviderDefinitions([broken])).toThrowError(/providers\[0\] is not a valid provider definition/)
    expect(checkProviderDefinitions([broken], [], { trusted: new Set([broken]) })).toEqual([
      resolveProviderDefinition(broken),
    ])
    const other = { ...base, id: 'other', label: '' }
    expect(() => checkProviderDefinitions([broken, other], [], { trusted: new Set([broken]) })).toThrowError(
      /providers\[1\] is not a valid provider definition: `label` must not be empty/,
    )
    expect(() => checkProviderDefinitions([base, { ...base }], [], { trusted: new Set([base]) })).toThrowError(
      /registered twice/,
    )
  })
})

describe('keyVariableHint and registeredProviderIdSchema', () => {
  it('names the first variable, and the alternates when asked', () => {
    expect(keyVariableHint(base)).toBe('MY_NEWS_KEY')
    expect(keyVariableHint(base, { alternates: true })).toBe('MY_NEWS_KEY (or NEWS_KEY)')
  })

  it('refuses an unknown id with the registered ids', () => {
    const schema = registeredProviderIdSchema(['brave', 'my-news'])
    expect(schema.parse('my-news')).toBe('my-news')
    const result = schema.safeParse('bing')
    expect(result.success).toBe(false)
    expect(result.error?.issues[0]?.message).toBe('unknown provider "bing"; registered providers: brave, my-news')
  })
})

describe('a provider without a base URL', () => {
  it('built on defineProvider fails its call as not configured, naming what is missing', async () => {
    const { defaultBaseUrl: _, ...noUrl } = base
    const provider = defineProvider({ definition: noUrl, run: async () => ({ results: [] }) })
    await expect(
      provider.search({ query: 'x' }, { env: { HOME: '/nonexistent-home', MY_NEWS_KEY: 'k' } }),
    ).rejects.toMatchObject({
      kind: 'config',
      message: 'my-news has no base URL: give its definition a defaultBaseUrl, or set one',
    })
  })
})

describe('a keyless provider', () => {
  it('is always configured and runs without a key', async () => {
    const keyless = { ...base, keyless: true, env: { apiKey: [], baseUrl: 'MY_NEWS_URL' } }
    let seenKey: string | undefined
    const provider = defineProvider({
      definition: keyless,
      run: async ({ apiKey }) => {
        seenKey = apiKey
        return { results: [] }
      },
    })
    expect(provider.isConfigured({ HOME: '/nonexistent-home' })).toBe(true)
    await provider.search({ query: 'x' }, { env: { HOME: '/nonexistent-home' } })
    expect(seenKey).toBe('')
  })
})
