import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readConfigFiles } from './config.js'
import { type ProviderCall, defineProvider, frozenRequest } from './define-provider.js'
import { ProviderError } from './errors.js'

const EXA = {
  id: 'exa',
  env: { apiKey: ['EXA_API_KEY'], baseUrl: 'EXA_API_URL' },
  defaultBaseUrl: 'https://api.exa.ai',
}
const env = { HOME: '/nonexistent-home', EXA_API_KEY: 'exa-secret-key-123456' }

describe('defineProvider', () => {
  it('resolves the key at call time and hands run a validated request with defaults', async () => {
    const calls: unknown[] = []
    const provider = defineProvider({
      definition: EXA,
      env,
      async run(call) {
        calls.push(call)
        return { results: [] }
      },
    })
    expect(provider.isConfigured()).toBe(true)
    expect(provider.isConfigured({ HOME: '/nonexistent-home' })).toBe(false)
    await provider.search({ query: 'rust' })
    expect(calls[0]).toMatchObject({
      apiKey: 'exa-secret-key-123456',
      request: { query: 'rust', num: 5 },
      http: { secrets: ['exa-secret-key-123456'] },
    })
  })

  it("uses the call's pool key over the resolved one, and hands run the response and request-sent hooks", async () => {
    const seen: unknown[] = []
    const onResponse = () => {}
    const onRequestSent = () => {}
    const provider = defineProvider({
      definition: EXA,
      env: { ...env, EXA_API_KEY: 'exa-first-0001,exa-second-0002' },
      async run(call) {
        seen.push(call)
        return { results: [] }
      },
    })
    await provider.search({ query: 'rust' })
    await provider.search(
      { query: 'rust' },
      { apiKey: 'exa-second-0002', onResponse, onRequestSent, retryRateLimited: false },
    )
    expect(seen[0]).toMatchObject({ apiKey: 'exa-first-0001' })
    expect(seen[1]).toMatchObject({
      apiKey: 'exa-second-0002',
      http: { secrets: ['exa-second-0002'], onResponse, onRequestSent, retryRateLimited: false },
    })
  })

  it("resolves against the caller's reading of the config files when it is given one", async () => {
    const home = mkdtempSync(join(tmpdir(), 'sl-define-'))
    const file = join(home, '.config', 'search-layer', 'config.json')
    mkdirSync(join(file, '..'), { recursive: true })
    writeFileSync(file, JSON.stringify({ exa: 'exa-from-file-0001' }))
    const fileEnv = { HOME: home }
    const keys: string[] = []
    const provider = defineProvider({
      definition: EXA,
      run: async (call) => {
        keys.push(call.apiKey)
        return { results: [] }
      },
    })
    const reading = readConfigFiles({ env: fileEnv })
    writeFileSync(file, JSON.stringify({}))
    expect(provider.isConfigured(fileEnv, reading)).toBe(true)
    expect(provider.isConfigured(fileEnv)).toBe(false)
    await provider.search({ query: 'rust' }, { env: fileEnv, config: reading })
    expect(keys).toEqual(['exa-from-file-0001'])
  })

  it('validates a frozen request once for every provider it goes to, and shares it frozen', async () => {
    const seen: ProviderCall['request'][] = []
    const make = (id: string) =>
      defineProvider({
        definition: { ...EXA, id },
        env,
        run: async (call) => {
          seen.push(call.request)
          return { results: [] }
        },
      })
    const shared = frozenRequest({ query: 'rust', includeDomains: ['docs.rs'] })
    await make('exa').search(shared)
    await make('other').search(shared)
    expect(seen[1]).toBe(seen[0])
    expect(Object.isFrozen(seen[0]) && Object.isFrozen(seen[0]!.includeDomains)).toBe(true)
    expect(seen[0]).toMatchObject({ query: 'rust', num: 5, includeDomains: ['docs.rs'] })
    // A request the caller may still change is read afresh on every call.
    const open = { query: 'first' }
    await make('exa').search(open)
    open.query = 'second'
    await make('exa').search(open)
    expect(seen.slice(2).map((r) => r.query)).toEqual(['first', 'second'])
    await expect(make('exa').search(frozenRequest({ query: '' }))).rejects.toThrow(/search request is invalid/)
  })

  it.each([
    ['a missing key', { HOME: '/nonexistent-home' }, { query: 'x' }, /exa is not configured: set EXA_API_KEY/],
    ['an invalid request', env, { query: '' }, /exa search request is invalid: query/],
    ['a malformed base URL', { ...env, EXA_API_URL: 'ftp://x' }, { query: 'x' }, /exa configuration is invalid/],
  ])('%s is a config error', async (_label, callEnv, request, message) => {
    const provider = defineProvider({ definition: EXA, run: async () => ({ results: [] }) })
    const error = await provider.search(request, { env: callEnv }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ProviderError)
    expect(error).toMatchObject({ kind: 'config', provider: 'exa', retryable: false })
    expect((error as Error).message).toMatch(message)
  })

  it('wraps anything else as bad_response with the key scrubbed, and passes ProviderErrors through', async () => {
    const broken = defineProvider({
      definition: EXA,
      env,
      run: async ({ apiKey }) => {
        throw new TypeError(`cannot read x of undefined (key ${apiKey})`)
      },
    })
    const error = await broken.search({ query: 'x' }).catch((e: unknown) => e)
    expect(error).toMatchObject({ kind: 'bad_response', provider: 'exa' })
    expect((error as Error).message).not.toContain('exa-secret-key-123456')
    const limited = defineProvider({
      definition: EXA,
      env,
      run: async () => {
        throw new ProviderError('slow down', { kind: 'rate_limited', retryAfterMs: 1000 })
      },
    })
    await expect(limited.search({ query: 'x' })).rejects.toMatchObject({ kind: 'rate_limited', retryAfterMs: 1000 })
  })

  it('combines the request signal and the context signal', async () => {
    let seen: AbortSignal | undefined
    const provider = defineProvider({
      definition: EXA,
      env,
      async run({ http }) {
        seen = http.signal
        return { results: [] }
      },
    })
    const a = new AbortController()
    const b = new AbortController()
    await provider.search({ query: 'x', signal: a.signal }, { signal: b.signal, deadlineAt: 123 })
    expect(seen?.aborted).toBe(false)
    b.abort()
    expect(seen?.aborted).toBe(true)
  })
})
