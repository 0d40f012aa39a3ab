// Testing an agent offline: the search calls it makes are answered from cassettes committed beside this file.
//
// Record (once, or when the agent's searches change), then commit test/cassettes/:
//   RECORD_CASSETTES=1 npx vitest run test/replay.example.test.ts
// Every other run (CI included) replays them: no network, no keys.
//
// These cassettes were recorded against the project's emulator on a fixed port, so the replay points the providers'
// URL variables at it. Cassettes recorded against the real APIs need no URL variables: set SEARCH_LAYER_RECORD=<dir>
// with your keys once, and SEARCH_LAYER_REPLAY=<dir> in CI.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type Emulator, startEmulator } from '@search-layer/testkit'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type SearchLayer, createSearchLayer } from '../src/index.js'

const CASSETTES = fileURLToPath(new URL('./cassettes', import.meta.url))
const RECORDING = process.env.RECORD_CASSETTES === '1'
const EMULATOR_PORT = 47311
const RECORDED_AGAINST = {
  BRAVE_API_URL: `http://127.0.0.1:${EMULATOR_PORT}/brave`,
  EXA_API_URL: `http://127.0.0.1:${EMULATOR_PORT}/exa`,
  TAVILY_API_URL: `http://127.0.0.1:${EMULATOR_PORT}/tavily`,
  GROK_API_URL: `http://127.0.0.1:${EMULATOR_PORT}/xai/v1`,
  WIKIPEDIA_API_URL: `http://127.0.0.1:${EMULATOR_PORT}/wikipedia/{lang}`,
}

/** The agent under test: searches a topic and cites its three best sources. */
async function briefing(layer: SearchLayer, topic: string): Promise<string[]> {
  const res = await layer.search({ query: topic, mode: 'deep', intent: 'exploratory', maxQueries: 1 })
  const failed = Object.entries(res.providers).filter(([, report]) => report?.status === 'error')
  if (failed.length > 0) throw new Error(`search failed: ${JSON.stringify(failed)}`)
  return res.results.slice(0, 3).map((r, i) => `[${i + 1}] ${r.title} (${new URL(r.url).hostname})`)
}

let emu: Emulator | undefined
beforeAll(async () => {
  if (RECORDING) emu = await startEmulator({ port: EMULATOR_PORT })
})
afterAll(async () => {
  await emu?.close()
})

const layer = () =>
  createSearchLayer({
    env: {
      HOME: mkdtempSync(join(tmpdir(), 'sl-example-home-')),
      ...(emu
        ? { ...emu.env, SEARCH_LAYER_RECORD: CASSETTES }
        : { ...RECORDED_AGAINST, SEARCH_LAYER_REPLAY: CASSETTES }),
    },
    cache: false,
    rateLimits: false,
  })

describe('an agent tested offline', () => {
  it('cites three sources for a topic, from recorded searches', async () => {
    const lines = await briefing(layer(), 'rust async runtime tokio')
    expect(lines).toHaveLength(3)
    for (const [i, line] of lines.entries()) expect(line).toMatch(new RegExp(`^\\[${i + 1}\\] .+ \\([a-z0-9.-]+\\)$`))
    expect(lines[0]).toBe(
      '[1] tokio-rs/tokio: A runtime for writing reliable asynchronous applications with Rust (github.com)',
    )
  })
})
