import { mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startEmulator } from '@search-layer/testkit'
import { beforeAll, describe, expect, it } from 'vitest'
import { runBin } from './_run.js'

type Json = { results: { url: string }[]; providers: Record<string, { status: string; error?: { message: string } }> }

const fresh = (name: string) => mkdtempSync(join(tmpdir(), `sl-cli-${name}-`))
const cassettes = fresh('cassettes')
const QUERY = ['rust async runtime', '--mode', 'deep', '--intent', 'exploratory', '--max-queries', '1', '--json']
// The emulator's URLs, which stay in the replay env: the cassettes were recorded against them.
let urls: Record<string, string>
let recorded: Json

// Recorded once against the emulator, which is closed before any replay: a replayed call that tried the network
// would fail to connect.
beforeAll(async () => {
  const emu = await startEmulator()
  try {
    const env = Object.fromEntries(Object.entries(emu.env).filter(([k]) => !k.startsWith('SEARCH_LAYER_LLM_')))
    urls = Object.fromEntries(Object.entries(env).filter(([k]) => k.endsWith('_API_URL')))
    const r = await runBin(QUERY, {
      ...env,
      HOME: fresh('home'),
      SEARCH_LAYER_CACHE_DIR: fresh('cache'),
      SEARCH_LAYER_RATE_LIMITS: 'off',
      SEARCH_LAYER_RECORD: cassettes,
    })
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    recorded = JSON.parse(r.stdout) as Json
  } finally {
    await emu.close()
  }
})

const replay = (argv: string[], extra: Record<string, string> = {}) =>
  runBin(argv, {
    ...urls,
    HOME: fresh('home'),
    SEARCH_LAYER_CACHE_DIR: fresh('cache'),
    SEARCH_LAYER_RATE_LIMITS: 'off',
    SEARCH_LAYER_REPLAY: cassettes,
    ...extra,
  })

describe('search-layer with SEARCH_LAYER_REPLAY (built bin, no emulator running)', () => {
  it('answers a recorded search from cassettes, with no keys and no network', async () => {
    expect(readdirSync(cassettes).length).toBeGreaterThanOrEqual(4)
    const r = await replay(QUERY)
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    const out = JSON.parse(r.stdout) as Json
    // The four engines and the Wikipedia vertical an exploratory search asks.
    expect([
      ...['brave', 'exa', 'tavily', 'grok'].map((name) => out.providers[name]?.status),
      out.providers.wikipedia?.status,
    ]).toEqual(['ok', 'ok', 'ok', 'ok', 'ok'])
    expect(out.results.map((x) => x.url)).toEqual(recorded.results.map((x) => x.url))
  })

  it('reports a search that was never recorded as failed providers naming the missing cassettes', async () => {
    const r = await replay(['a search nobody recorded', '--mode', 'deep', '--max-queries', '1', '--json'])
    expect(r.code).not.toBe(0)
    expect(`${r.stdout}${r.stderr}`).toMatch(/looked for brave-[0-9a-f]{12}\.json in /)
  })

  it('refuses a replay directory that does not exist, saying how to record one', async () => {
    const missing = join(fresh('gone'), 'cassettes')
    const r = await replay(QUERY, { SEARCH_LAYER_REPLAY: missing })
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(`record cassettes there first with SEARCH_LAYER_RECORD=${missing}`)
  })

  it('refuses SEARCH_LAYER_RECORD together with SEARCH_LAYER_REPLAY as a configuration error', async () => {
    const r = await replay(QUERY, { SEARCH_LAYER_RECORD: fresh('other') })
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/SEARCH_LAYER_RECORD and SEARCH_LAYER_REPLAY are both set/)
  })
})
