import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readConfigFiles } from './config.js'
import { defineProvider } from './define-provider.js'
import { lazyProvider } from './lazy-provider.js'
import type { Env, Provider } from './provider.js'
import type { ProviderDefinition } from './provider-definition.js'

const definition = ({ keyless = false } = {}): ProviderDefinition => ({
  id: 'exa',
  label: 'Exa',
  docsUrl: 'https://docs.exa.ai',
  env: { apiKey: ['EXA_API_KEY'], baseUrl: 'EXA_API_URL' },
  defaultBaseUrl: 'https://api.exa.ai',
  ...(keyless && { keyless: true }),
  capabilities: ['web'],
  priority: 20,
  rateLimit: { perSecond: 5, burst: 5, maxConcurrent: 5 },
  cost: { usdPerCall: 0.005 },
  create: () => {
    throw new Error('not used here')
  },
})
const HOME = { HOME: '/nonexistent-home' }
const eager = (d: ProviderDefinition, env?: Env) =>
  defineProvider({ definition: d, ...(env && { env }), run: async () => ({ results: [] }) })

describe('lazyProvider', () => {
  it('answers isConfigured from the definition as defineProvider does, without loading anything', () => {
    let loads = 0
    const load = async (): Promise<Provider> => {
      loads++
      return eager(definition())
    }
    const home = mkdtempSync(join(tmpdir(), 'sl-lazy-'))
    const file = join(home, '.config', 'search-layer', 'config.json')
    mkdirSync(join(file, '..'), { recursive: true })
    writeFileSync(file, JSON.stringify({ providers: { exa: { apiKey: 'exa-from-file-0001' } } }))
    const cases: { env: Env; reading?: ReturnType<typeof readConfigFiles> }[] = [
      { env: HOME },
      { env: { ...HOME, EXA_API_KEY: 'exa-secret-key-123456' } },
      { env: { HOME: home }, reading: readConfigFiles({ env: { HOME: home } }) },
      { env: { ...HOME, EXA_API_URL: 'not a url', EXA_API_KEY: 'exa-secret-key-123456' } },
    ]
    for (const d of [definition(), definition({ keyless: true })]) {
      const lazy = lazyProvider(d, undefined, load)
      const real = eager(d)
      for (const { env, reading } of cases)
        expect(lazy.isConfigured(env, reading)).toBe(real.isConfigured(env, reading))
    }
    // The creator's env stands in when a call gives none.
    expect(lazyProvider(definition(), { ...HOME, EXA_API_KEY: 'exa-key-0002' }, load).isConfigured()).toBe(true)
    expect(loads).toBe(0)
  })

  it('loads the provider with the first search only, and hands every search to it', async () => {
    let loads = 0
    const seen: string[] = []
    const lazy = lazyProvider(definition(), undefined, async () => {
      loads++
      return defineProvider({
        definition: definition(),
        env: { ...HOME, EXA_API_KEY: 'exa-secret-key-123456' },
        run: async ({ request }) => {
          seen.push(request.query)
          return { results: [] }
        },
      })
    })
    expect(lazy.name).toBe('exa')
    await Promise.all([lazy.search({ query: 'rust' }), lazy.search({ query: 'go' })])
    await lazy.search({ query: 'zig' })
    expect(loads).toBe(1)
    expect(seen).toEqual(['rust', 'go', 'zig'])
  })

  it('turns a failed load into a config ProviderError naming the provider', async () => {
    const lazy = lazyProvider(definition(), undefined, () =>
      Promise.reject(new Error('Cannot find module ./client.js')),
    )
    await expect(lazy.search({ query: 'rust' })).rejects.toMatchObject({
      name: 'ProviderError',
      kind: 'config',
      provider: 'exa',
      retryable: false,
      message: 'exa could not be loaded: Cannot find module ./client.js',
    })
  })
})
