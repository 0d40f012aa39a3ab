import { describe, expect, it } from 'vitest'
import { defineProvider } from './define-provider.js'
import { ConfigError } from './errors.js'
import {
  type ProviderDefinition,
  checkProviderDefinitions,
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
  cost: { usdPerCall: 0.001 },
  create: () => defineProvider({ definition: base, run: async () => ({ results: [] }) }),
}

describe('validateProviderDefinition', () => {
  it('accepts a complete definition as it is', () => {
    expect(validateProviderDefinition(base, 'plugin foo')).toBe(base)
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
      'no key variable and not keyless',
      { ...base, env: { ...base.env, apiKey: [] } },
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

describe('checkProviderDefinitions', () => {
  it('refuses a duplicated id, naming both origins', () => {
    expect(() => checkProviderDefinitions([base, { ...base }], ['built-in', 'search-layer-provider-foo'])).toThrowError(
      /provider id "my-news" is registered twice \(built-in and search-layer-provider-foo\)/,
    )
  })

  it('validates all but the trusted definitions, and checks every id for duplicates', () => {
    const broken = { ...base, id: 'broken', docsUrl: 'not a url' }
    expect(() => checkProviderDefinitions([broken])).toThrowError(/providers\[0\] is not a valid provider definition/)
    expect(checkProviderDefinitions([broken], [], { trusted: new Set([broken]) })).toEqual([broken])
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
