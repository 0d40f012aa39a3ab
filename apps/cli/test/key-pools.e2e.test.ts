import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { useEmulator } from '@search-layer/testkit/vitest'
import { describe, expect, it } from 'vitest'
import { runBin } from './_run.js'

const KEY_ONE = 'BSAcli-pool-first-00000001'
const KEY_TWO = 'BSAcli-pool-second-0000002'
const emu = useEmulator({ keys: { brave: [KEY_ONE, KEY_TWO] } })

const tmp = (prefix: string) => mkdtempSync(join(tmpdir(), prefix))
const braveEnv = (cacheDir: string) => ({
  HOME: tmp('sl-cli-pool-home-'),
  BRAVE_API_KEY: `${KEY_ONE},${KEY_TWO}`,
  BRAVE_API_URL: emu.urls.brave,
  SEARCH_LAYER_CACHE_DIR: cacheDir,
})
const expectNoKey = (...outputs: string[]) => {
  for (const output of outputs) {
    expect(output).not.toContain(KEY_ONE)
    expect(output).not.toContain(KEY_TWO)
  }
}

describe('key pools and learned limits in the CLI', () => {
  it('a 429 on one key is retried on the other, and no output names either key', async () => {
    emu.fault('brave', { status: 429, key: KEY_ONE, retryAfterSec: 30 })
    const cache = tmp('sl-cli-pool-cache-')
    const r = await runBin(['rust async', '--source', 'brave', '--intent', 'none', '--json'], braveEnv(cache))
    expect(r.code).toBe(0)
    const out = JSON.parse(r.stdout) as { providers: Record<string, { status: string }> }
    expect(out.providers.brave!.status).toBe('ok')
    expect(emu.requests.map((q) => q.headers['x-subscription-token'])).toEqual([KEY_ONE, KEY_TWO])
    const text = await runBin(['providers'], braveEnv(cache))
    const json = await runBin(['providers', '--json'], braveEnv(cache))
    expectNoKey(r.stdout, r.stderr, text.stdout, text.stderr, json.stdout, json.stderr)
    expect(text.stdout).toMatch(/brave +key #1 \(…[0-9a-f]{4}\) .*resting until .*\(rate_limited\)/)
    expect(text.stdout).toMatch(/brave +key #2 \(…[0-9a-f]{4}\) .* ok\n/)
  })

  it('what one run learned from Brave headers is shown by the next, from a 0600 file holding no key', async () => {
    const cache = tmp('sl-cli-pool-cache-')
    const search = await runBin(['semantic kernel', '--source', 'brave', '--intent', 'none', '--json'], braveEnv(cache))
    expect(search.code).toBe(0)
    const file = join(cache, 'key-state.json')
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expectNoKey(readFileSync(file, 'utf8'))

    const r = await runBin(['providers', '--json'], braveEnv(cache))
    const brave = (JSON.parse(r.stdout) as { providers: { name: string; keys?: unknown[] }[] }).providers.find(
      (p) => p.name === 'brave',
    )!
    // The emulator answers as Brave's Free plan does: 1 request per second, 15,000 a month, 14,998 left.
    expect(brave.keys).toContainEqual(
      expect.objectContaining({
        pace: { perSecond: 1, burst: 1, learned: true },
        limits: expect.objectContaining({ quotaLimit: 15_000, quotaRemaining: 14_998 }),
      }),
    )
    const text = await runBin(['providers'], braveEnv(cache))
    expect(text.stdout).toMatch(/1\/s \(learned\) .*14,998 of 15,000 left, resets /)
  })

  it('what one run timed is shown by the next: p50 / p90 and the calls timed, per key and per provider', async () => {
    const cache = tmp('sl-cli-pool-cache-')
    emu.latency('brave', 30)
    for (const query of ['semantic kernel', 'tokio runtime']) {
      const search = await runBin([query, '--source', 'brave', '--intent', 'none', '--json'], braveEnv(cache))
      expect(search.code).toBe(0)
    }
    const r = await runBin(['providers', '--json'], braveEnv(cache))
    type Latency = { samples: number; late: number; p50: { ms: number }; p90: { ms: number } }
    const brave = (
      JSON.parse(r.stdout) as { providers: { name: string; latency?: Latency; keys?: { latency?: Latency }[] }[] }
    ).providers.find((p) => p.name === 'brave')!
    // Two searches, one call each, every call timed. Which key each takes depends on how soon the second process
    // starts: within Brave's free-plan second the first key is resting and the other takes it, later either may.
    expect(brave.latency).toMatchObject({ samples: 2, late: 0 })
    expect(brave.keys!.reduce((n, k) => n + (k.latency?.samples ?? 0), 0)).toBe(2)
    expect(brave.latency!.p50.ms).toBeGreaterThanOrEqual(30)
    const text = await runBin(['providers'], braveEnv(cache))
    expect(text.stdout).toContain('latency p50 / p90')
    expect(text.stdout).toMatch(/brave +key #\d .*\d+ ms \/ \d+ ms \((?:1 call|2 calls)\)/)
  })

  it('before any call is timed, shows the typical latency searches go by until then', async () => {
    const cache = tmp('sl-cli-pool-cache-')
    const text = await runBin(['providers'], braveEnv(cache))
    expect(text.stdout).toMatch(/brave +key #\d .*not timed \(usually 450 ms\)/)
    const json = await runBin(['providers', '--json'], braveEnv(cache))
    const brave = (JSON.parse(json.stdout) as { providers: { name: string; typicalLatencyMs?: number }[] }).providers
    expect(brave.find((p) => p.name === 'brave')!.typicalLatencyMs).toBe(450)
  })

  it('says on stderr, once, what it ignored in a bad key-state file, and still searches', async () => {
    const cache = tmp('sl-cli-pool-cache-')
    const samples = Array.from({ length: 100 }, () => ({ ms: 1 }))
    const bad = { 'brave:0123456789ab': { latency: { updatedAt: Date.now(), samples } } }
    writeFileSync(join(cache, 'key-state.json'), JSON.stringify(bad))
    const r = await runBin(['semantic kernel', '--source', 'brave', '--intent', 'none', '--json'], braveEnv(cache))
    expect(r.code).toBe(0)
    const told = r.stderr.split('\n').filter((line) => line.includes('latency samples ignored'))
    expect(told).toEqual([
      expect.stringMatching(/^search-layer: warning: key-state file .* entry "brave:0123456789ab"/),
    ])
  })
})
