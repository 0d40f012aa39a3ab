import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { zeroKeyEnv } from '@search-layer/testkit'
import { useEmulator } from '@search-layer/testkit/vitest'
import { beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createSearchLayer, type SearchResponse } from '../src/index.js'
import { SearchResponseSchema, SearchResultOutSchema } from '../src/schemas.js'

const emu = useEmulator()
let home: string
beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'sl-schemas-'))
})

const layer = (env: Record<string, string>) =>
  createSearchLayer({ env: { ...env, HOME: home }, cache: false, rateLimits: false, providerRetries: 0 })
const zeroKeys = () => zeroKeyEnv(emu.env)

// Strict at the top and per result: a field the engine starts sending without a schema entry fails here, so the
// server's OpenAPI document (built from these schemas) cannot fall behind what searches return.
const StrictResponse = z.strictObject({
  ...SearchResponseSchema.shape,
  results: z.array(z.strictObject(SearchResultOutSchema.shape)),
})

describe('SearchResponseSchema on real responses', () => {
  it.each([
    [
      'a keyed search with operators, an intent and explain',
      () => emu.env,
      'tokio runtime site:github.com after:2024-01',
    ],
    ['a zero-key search (keyless_only)', zeroKeys, 'rust async tutorial'],
  ])('accepts %s', async (_, env, query) => {
    const res: SearchResponse = await layer(env()).search({ query, explain: true, maxQueries: 2 })
    expect(res.results.length).toBeGreaterThan(0)
    // Each case carries the optional block it is here for.
    expect(res.operators ?? res.keyless_only).toBeDefined()
    const parsed = StrictResponse.safeParse(res)
    expect(parsed.success ? [] : parsed.error.issues).toEqual([])
  })

  it('rejects a response with a field it does not know', () => {
    const bad = { ...sample(), surprise: 1 }
    expect(StrictResponse.safeParse(bad).success).toBe(false)
  })
})

function sample(): SearchResponse {
  return {
    query: 'q',
    mode: 'fast',
    intent: null,
    intent_source: 'none',
    queries: ['q'],
    count: 0,
    results: [],
    freshness_filter: null,
    providers: {},
    partial: false,
    cached: false,
    warnings: [],
    timing: { total_ms: 1 },
  }
}
