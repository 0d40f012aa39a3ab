import { mkdtempSync, readFileSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ConfigError } from '@search-layer/core'
import { GITHUB_SERVICE } from '@search-layer/core/config'
import { useEmulator } from '@search-layer/testkit/vitest'
import { beforeAll, describe, expect, it } from 'vitest'
import { builtInProviders, createSearchLayer } from '../src/index.js'

// Distinctive values for every key variable there is, so a leak anywhere in a cassette is found by a plain search.
const KEYS = {
  brave: 'BSAdistinct-brave-key-4f1c9a',
  exa: 'exa-distinct-key-77e0b2',
  tavily: 'tvly-distinct-key-9d3a61',
  grok: 'xai-distinct-key-c5b8e4',
  github: 'ghp_distinctGithubToken000000000a1',
  llm: 'sk-distinct-llm-key-2e7f',
}
const ALTERNATE_KEYS: Record<string, string> = {
  GROK_API_KEY: 'grok-alternate-distinct-key-61aa',
  GH_TOKEN: 'gh-alternate-distinct-token-93bb',
}

const emu = useEmulator({ keys: KEYS, resetEachTest: false })
let home: string
beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'sl-cassettes-home-'))
})

const search = (env: Record<string, string | undefined>, query = 'rust async runtime tokio') =>
  createSearchLayer({ env: { HOME: home, ...env }, cache: false, rateLimits: false, providerRetries: 0 }).search({
    query,
    mode: 'deep',
    intent: 'exploratory',
    maxQueries: 2,
    // Every exchange is recorded only if every call is waited for; a loaded host can make one `late`.
    wait: 'all',
  })

// The emulator's URLs without any key: what a CI without secrets has.
const urlsOnly = () => Object.fromEntries(Object.entries(emu.env).filter(([name]) => !/KEY|TOKEN/.test(name)))

describe('cassettes over a deep search', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sl-cassettes-'))
  let recorded: Awaited<ReturnType<typeof search>>

  it('records every provider exchange, and no cassette holds any key variable value', async () => {
    const env: Record<string, string> = { ...emu.env, ...ALTERNATE_KEYS, SEARCH_LAYER_RECORD: dir }
    for (const definition of [...builtInProviders, GITHUB_SERVICE])
      for (const name of definition.env.apiKey) expect(env[name], `${name} is set for this test`).toBeTruthy()
    emu.reset()
    recorded = await search(env)
    for (const name of ['brave', 'exa', 'tavily', 'grok'] as const)
      expect(recorded.providers[name]).toMatchObject({ status: 'ok' })
    const files = readdirSync(dir)
    // Every exchange, the Wikipedia vertical's (an exploratory search asks it) included.
    expect(recorded.providers.wikipedia).toMatchObject({ status: 'ok' })
    expect(files).toHaveLength(emu.requests.length)
    for (const provider of ['brave', 'exa', 'tavily', 'grok'])
      expect(files.some((f) => f.startsWith(`${provider}-`))).toBe(true)

    const secretValues = [...Object.values(KEYS), ...Object.values(ALTERNATE_KEYS)]
    for (const file of files) {
      const bytes = readFileSync(join(dir, file))
      for (const value of secretValues)
        expect(bytes.includes(Buffer.from(value)), `${file} contains a key value`).toBe(false)
      expect(bytes.toString('utf8')).not.toMatch(/authorization|x-api-key|x-subscription-token/i)
    }
  })

  it('replays the same search without keys, and no request reaches the emulator', async () => {
    emu.reset()
    const replayed = await search({ ...urlsOnly(), SEARCH_LAYER_REPLAY: dir })
    expect(emu.requests).toHaveLength(0)
    for (const name of ['brave', 'exa', 'tavily', 'grok'] as const)
      expect(replayed.providers[name]).toMatchObject({ status: 'ok' })
    expect(replayed.results.map((r) => r.url)).toEqual(recorded.results.map((r) => r.url))
    expect(replayed.answer).toEqual(recorded.answer)
  })

  it('reports a provider as failed on a miss, naming the cassette it looked for', async () => {
    emu.reset()
    const replayed = await search({ ...urlsOnly(), SEARCH_LAYER_REPLAY: dir }, 'a query that was never recorded')
    expect(emu.requests).toHaveLength(0)
    const brave = replayed.providers.brave
    expect(brave).toMatchObject({ status: 'error', error: { kind: 'config' } })
    expect(brave?.error?.message).toMatch(/looked for brave-[0-9a-f]{12}\.json in /)
    expect(brave?.error?.message).toContain(dir)
  })

  it('leaves providers without cassettes unconfigured in replay', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'sl-cassettes-empty-'))
    const layer = createSearchLayer({ env: { HOME: home, ...urlsOnly(), SEARCH_LAYER_REPLAY: empty }, cache: false })
    const keyed = async (l: typeof layer) =>
      (await l.status()).filter((s) => ['brave', 'exa', 'tavily', 'grok'].includes(s.name)).map((s) => s.configured)
    expect(await keyed(layer)).toEqual([false, false, false, false])
    const full = createSearchLayer({ env: { HOME: home, ...urlsOnly(), SEARCH_LAYER_REPLAY: dir }, cache: false })
    expect(await keyed(full)).toEqual([true, true, true, true])
  })

  it('refuses a replay directory without cassettes as one configuration error', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'sl-cassettes-empty-'))
    await expect(search({ ...urlsOnly(), SEARCH_LAYER_REPLAY: empty })).rejects.toThrow(/holds no cassettes/)
  })

  it('refuses SEARCH_LAYER_RECORD and SEARCH_LAYER_REPLAY together', async () => {
    await expect(search({ ...emu.env, SEARCH_LAYER_RECORD: dir, SEARCH_LAYER_REPLAY: dir })).rejects.toThrow(
      ConfigError,
    )
  })
})
