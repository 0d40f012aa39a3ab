import type { Emulator } from '@search-layer/testkit'
import { beforeAll, describe, expect, it } from 'vitest'
import { upstreamCalls } from './_helpers.js'
import { type RedisProcess, useRedisPair } from './_redis.js'

// Two server instances on one Redis behave as one service; Redis going away degrades them, never fails them.
const instances = useRedisPair()
let emu: Emulator
let redis: RedisProcess
beforeAll(() => {
  ;({ emu, redis } = instances.shared)
})
const waitUntil = async (check: () => Promise<boolean>, timeoutMs: number) => {
  const until = Date.now() + timeoutMs
  while (Date.now() < until) {
    if (await check()) return true
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return false
}

describe('two instances sharing one Redis', () => {
  it('the second instance answers from the shared cache with zero upstream calls', async () => {
    const [a, b] = await instances.pair({ redisPrefix: 'cache-test:' })
    // Waiting for all: a settled search may store a late engine's results after it answers (a fuller entry).
    const request = {
      query: 'rust async runtime tokio',
      mode: 'deep',
      intent: 'exploratory',
      maxQueries: 1,
      wait: 'all',
    }
    const first = await (await a.call('/v1/search', { json: request })).json()
    expect(first.cached).toBe(false)
    const calls = upstreamCalls(emu)
    expect(calls).toBe(4)
    const second = await (await b.call('/v1/search', { json: request })).json()
    expect(second.cached).toBe(true)
    expect(second.results).toEqual(first.results)
    expect(upstreamCalls(emu)).toBe(calls)
    expect(await (await b.call('/metrics')).text()).toContain('search_layer_cache_requests_total{result="hit"} 1')
  })

  it('identical concurrent searches on both instances make one fan-out (cross-instance single-flight)', async () => {
    const [a, b] = await instances.pair({ redisPrefix: 'flight-test:' })
    emu.latency('brave', 300)
    emu.latency('exa', 300)
    const request = { query: 'kubernetes operator pattern', mode: 'fast', intent: 'none' }
    const [ra, rb] = await Promise.all([
      a.call('/v1/search', { json: request }),
      b.call('/v1/search', { json: request }),
    ])
    const [ja, jb] = [await ra.json(), await rb.json()]
    expect([ja.cached, jb.cached].sort()).toEqual([false, true])
    expect(jb.results).toEqual(ja.results)
    expect(upstreamCalls(emu)).toBe(2) // exa + brave, once
  })

  it('rate limits are counted across instances', async () => {
    const apiKeys = [{ name: 'team', key: 'team-key-0123456789' }]
    const [a, b] = await instances.pair({
      redisPrefix: 'rl-test:',
      apiKeys,
      clientRateLimit: 3,
      clientRateWindowMs: 30_000,
    })
    const key = 'team-key-0123456789'
    expect((await a.call('/api/tools', { key })).status).toBe(200)
    expect((await b.call('/api/tools', { key })).status).toBe(200)
    expect((await a.call('/api/tools', { key })).status).toBe(200)
    const refused = await b.call('/api/tools', { key })
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
  })

  it('tool calls logged on one instance are listed and cleared on the other', async () => {
    const apiKeys = [{ name: 'team', key: 'team-key-tools-0123456789' }]
    const [a, b] = await instances.pair({ redisPrefix: 'tool-log-test:', apiKeys })
    const key = apiKeys[0]!.key
    expect((await a.call('/api/tools/web_search', { json: { query: 'tokio' }, key })).status).toBe(200)
    expect((await a.call('/api/tools/web_search', { json: { query: 'axum' }, key })).status).toBe(200)
    let entries: { args: string }[] = []
    await waitUntil(async () => {
      entries = (await (await b.call('/v1/tool-calls', { key })).json()).entries
      return entries.length === 2
    }, 5000)
    expect(entries.map((e) => JSON.parse(e.args).query)).toEqual(['axum', 'tokio'])
    expect((await (await b.call('/v1/tool-calls', { method: 'DELETE', key })).json()).deleted).toBe(2)
    expect((await (await a.call('/v1/tool-calls', { key })).json()).entries).toEqual([])
  })

  it('history written on one instance is read and cleared on the other', async () => {
    const [a, b] = await instances.pair({ redisPrefix: 'history-test:' })
    await a.call('/v1/search', { json: { query: 'bun vs deno', mode: 'fast' } })
    await a.call('/api/tools/web_search', { json: { query: 'what is webtransport' } })
    const seen = await (await b.call('/v1/history')).json()
    expect(seen.entries.map((e: { query: string }) => e.query)).toEqual(['what is webtransport', 'bun vs deno'])
    // One entry by its time, then the rest.
    const when = encodeURIComponent(seen.entries[1].when)
    expect(await (await a.call(`/v1/history?when=${when}`, { method: 'DELETE' })).json()).toEqual({ deleted: 1 })
    expect((await (await b.call('/v1/history')).json()).entries.map((e: { query: string }) => e.query)).toEqual([
      'what is webtransport',
    ])
    expect(await (await b.call('/v1/history', { method: 'DELETE' })).json()).toEqual({ deleted: 1 })
    expect((await (await a.call('/v1/history')).json()).entries).toEqual([])
  })

  it('monthly provider budgets are counted in Redis', async () => {
    const [a, b] = await instances.pair({ redisPrefix: 'budget-test:', monthlyBudgets: { brave: 50 } })
    await a.call('/v1/search', { json: { query: 'postgres vacuum tuning', mode: 'fast', sources: ['brave'] } })
    const metrics = await (await b.call('/metrics')).text()
    expect(metrics).toMatch(/search_layer_budget_used_calls\{provider="brave",month="\d{4}-\d{2}"\} 1/)
    expect(metrics).toContain('search_layer_redis_up 1')
  })

  it('/readyz reports Redis up', async () => {
    const [a] = await instances.pair({ redisPrefix: 'ready-test:' })
    expect(await (await a.call('/readyz')).json()).toMatchObject({
      status: 'ready',
      redis: { configured: true, up: true },
    })
  })
})

describe('Redis going down mid-test', () => {
  it('degrades to in-process state: no failed requests, a warning in /readyz, and recovery when Redis returns', async () => {
    const [a, b] = await instances.pair({ redisPrefix: 'down-test:', clientRateLimit: 100, redisTimeoutMs: 200 })
    await a.call('/v1/search', { json: { query: 'react server components', mode: 'fast' } })
    expect((await (await b.call('/v1/history')).json()).entries).toHaveLength(1)

    await redis.stop()

    const statuses: number[] = []
    for (const srv of [a, b]) {
      const search = await srv.call('/v1/search', { json: { query: 'asyncio task groups', mode: 'fast' } })
      statuses.push(search.status)
      expect((await search.json()).results.length).toBeGreaterThan(0)
      statuses.push((await srv.call('/api/tools/web_search', { json: { query: 'risc-v vector extension' } })).status)
      statuses.push((await srv.call('/v1/history')).status)
      statuses.push((await srv.call('/metrics')).status)
      statuses.push((await srv.call('/api/tools')).status)
    }
    expect(statuses.every((s) => s === 200)).toBe(true)

    const ready = await a.call('/readyz')
    expect(ready.status).toBe(200)
    const body = await ready.json()
    expect(body.status).toBe('degraded')
    expect(body.redis).toMatchObject({ configured: true, up: false })
    expect(body.warnings.join(' ')).toMatch(/redis unreachable/)
    // Each instance now remembers its own searches (in its JSONL file) and serves its own cache.
    const local = await (await a.call('/v1/history')).json()
    expect(local.entries.map((e: { query: string }) => e.query)).toContain('asyncio task groups')
    const before = upstreamCalls(emu)
    expect(
      (await (await a.call('/v1/search', { json: { query: 'asyncio task groups', mode: 'fast' } })).json()).cached,
    ).toBe(true)
    expect(upstreamCalls(emu)).toBe(before)
    expect(a.logs.text()).toMatch(/redis degraded, using in-process state/)

    await redis.restart()
    const back = await waitUntil(async () => (await (await a.call('/readyz')).json()).status === 'ready', 8000)
    expect(back).toBe(true)
  })
})
