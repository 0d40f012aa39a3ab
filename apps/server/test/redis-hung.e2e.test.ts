import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pino from 'pino'
import { useEmulator } from '@search-layer/testkit/vitest'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createGuardedRedis } from '../src/guarded-redis.js'
import { type ServerApp, createApp } from '../src/index.js'
import { type FakeRedis, startFakeRedis } from './_fake-redis.js'

const emu = useEmulator({ resetEachTest: false })
const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function fake(options: { hung?: boolean } = {}): Promise<FakeRedis> {
  const redis = await startFakeRedis(options)
  cleanups.push(() => redis.close())
  return redis
}

// Commands the server's calls sent after `from`, leaving out probes (PING) and connection setup (INFO, CLIENT).
const callsSince = (redis: FakeRedis, from: number) =>
  redis.commands.slice(from).filter((c) => !['PING', 'INFO', 'CLIENT'].includes(c))

describe('a hung Redis (connected, never answering)', () => {
  it('is skipped after 3 timeouts in a row, then used again once a probe answers', async () => {
    const redis = await fake()
    const state = createGuardedRedis({
      redisUrl: redis.url,
      prefix: 't:',
      timeoutMs: 150,
      logger: pino({ level: 'silent' }),
      probeIntervalMs: 100,
    })
    cleanups.push(() => state.close())
    expect(await state.ready(2000)).toBe(true)
    expect(
      await state.guard(
        'get',
        (r) => r.get('k'),
        () => 'fallback',
      ),
    ).toBeNull()

    redis.hang()
    const from = redis.commands.length
    const answers: unknown[] = []
    for (let i = 0; i < 20; i++)
      answers.push(
        await state.guard(
          'get',
          (r) => r.get('k'),
          () => 'fallback',
        ),
      )
    expect(answers.every((a) => a === 'fallback')).toBe(true)
    // Three calls waited for the timeout; the other seventeen never reached Redis.
    expect(callsSince(redis, from)).toEqual(['GET', 'GET', 'GET'])
    expect(state.up()).toBe(false)
    expect(await state.ping()).toMatchObject({ ok: false, error: expect.stringMatching(/^not answering: 3 calls/) })

    redis.resume()
    await vi.waitFor(() => expect(state.up()).toBe(true), { timeout: 3000, interval: 20 })
    expect(
      await state.guard(
        'get',
        (r) => r.get('k'),
        () => 'fallback',
      ),
    ).toBeNull()
  })

  it('a success between timeouts starts the count again', async () => {
    const redis = await fake()
    const state = createGuardedRedis({
      redisUrl: redis.url,
      prefix: 't:',
      timeoutMs: 150,
      logger: pino({ level: 'silent' }),
      probeIntervalMs: 60_000,
    })
    cleanups.push(() => state.close())
    expect(await state.ready(2000)).toBe(true)
    for (let round = 0; round < 3; round++) {
      redis.hang()
      await state.guard(
        'get',
        (r) => r.get('k'),
        () => 'fallback',
      )
      await state.guard(
        'get',
        (r) => r.get('k'),
        () => 'fallback',
      )
      redis.resume()
      expect(
        await state.guard(
          'get',
          (r) => r.get('k'),
          () => 'fallback',
        ),
      ).toBeNull()
    }
    expect(state.up()).toBe(true)
  })
})

describe('the server with a hung Redis', () => {
  const wire = (redisUrl: string): ServerApp => {
    const wired = createApp({
      env: { ...emu.env, HOME: mkdtempSync(join(tmpdir(), 'sl-hung-')) },
      dataDir: mkdtempSync(join(tmpdir(), 'sl-hung-data-')),
      logLevel: 'silent',
      providerRateLimits: false,
      redisUrl,
      redisTimeoutMs: 200,
    })
    cleanups.push(() => wired.close())
    return wired
  }
  const search = (wired: ServerApp, query: string) =>
    wired.app.request('/v1/search', {
      method: 'POST',
      body: JSON.stringify({ query, mode: 'fast' }),
      headers: { 'content-type': 'application/json' },
    })

  it('keeps answering, stops sending to Redis after 3 timeouts, says so in /readyz, and recovers', async () => {
    const redis = await fake()
    const wired = wire(redis.url)
    expect(await wired.ready(2000)).toBe(true)
    redis.hang()
    const from = redis.commands.length
    for (const query of ['hung redis one', 'hung redis two', 'hung redis three', 'hung redis four'])
      expect((await search(wired, query)).status).toBe(200)
    expect(callsSince(redis, from)).toHaveLength(3)

    const ready = await wired.app.request('/readyz')
    expect(ready.status).toBe(200)
    const body = (await ready.json()) as { status: string; redis: { up: boolean; error?: string }; warnings: string[] }
    expect(body.status).toBe('degraded')
    expect(body.redis).toMatchObject({ configured: true, up: false, error: expect.stringMatching(/^not answering/) })
    expect(body.warnings.join(' ')).toMatch(
      /redis unreachable \(not answering: 3 calls in a row took longer than 200 ms/,
    )

    redis.resume()
    await vi.waitFor(
      async () => expect(((await (await wired.app.request('/readyz')).json()) as typeof body).redis.up).toBe(true),
      { timeout: 5000, interval: 100 },
    )
    const resumed = redis.commands.length
    expect((await search(wired, 'hung redis five')).status).toBe(200)
    expect(callsSince(redis, resumed).length).toBeGreaterThan(0)
  })

  it('that never answered at all is never waited on: requests run in-process', async () => {
    const redis = await fake({ hung: true })
    const wired = wire(redis.url)
    expect(await wired.ready(300)).toBe(false)
    for (const query of ['never ready one', 'never ready two']) expect((await search(wired, query)).status).toBe(200)
    expect(callsSince(redis, 0)).toEqual([])
    const body = (await (await wired.app.request('/readyz')).json()) as { redis: { up: boolean } }
    expect(body.redis.up).toBe(false)
  })
})
