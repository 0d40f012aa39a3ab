import { mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startEmulator } from '@search-layer/testkit'
import { describe, expect, it } from 'vitest'
import { createApp } from '../src/index.js'

const fresh = (name: string) => mkdtempSync(join(tmpdir(), `sl-server-${name}-`))

async function search(env: Record<string, string>) {
  const { app, close } = createApp({
    env: { ...env, HOME: fresh('home') },
    dataDir: fresh('data'),
    logLevel: 'silent',
    providerRateLimits: false,
  })
  try {
    const res = await app.request('/v1/search', {
      method: 'POST',
      body: JSON.stringify({ query: 'rust async runtime', mode: 'deep', maxQueries: 1 }),
      headers: { 'content-type': 'application/json' },
    })
    return { status: res.status, body: (await res.json()) as { results: { url: string }[]; providers: object } }
  } finally {
    await close()
  }
}

describe('the server with cassettes', () => {
  it('records through /v1/search and replays it with the emulator closed and no keys', async () => {
    const dir = fresh('cassettes')
    const emu = await startEmulator()
    let recorded: Awaited<ReturnType<typeof search>>
    const urls = Object.fromEntries(Object.entries(emu.env).filter(([k]) => k.endsWith('_API_URL')))
    try {
      recorded = await search({ ...emu.env, SEARCH_LAYER_RECORD: dir })
    } finally {
      await emu.close()
    }
    expect(recorded.status).toBe(200)
    expect(readdirSync(dir).length).toBeGreaterThanOrEqual(4)

    const replayed = await search({ ...urls, SEARCH_LAYER_REPLAY: dir })
    expect(replayed.status).toBe(200)
    const asked = Object.values(replayed.body.providers).filter((p: { status: string }) => p.status !== 'skipped')
    expect(asked.map((p: { status: string }) => p.status)).toEqual(['ok', 'ok', 'ok', 'ok'])
    expect(replayed.body.results.map((r) => r.url)).toEqual(recorded.body.results.map((r) => r.url))
  })
})
