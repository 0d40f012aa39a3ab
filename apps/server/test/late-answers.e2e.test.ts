import { useEmulator } from '@search-layer/testkit/vitest'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { type Booted, type Json, boot } from './_helpers.js'

// A search settles once its first engines answered; on the server the late engine's call runs on and completes the
// cached entry. Grok is the late one here (its emulated latency far above the others', no grace given).

const emu = useEmulator()
const servers: Booted[] = []
const start = async () => {
  const server = await boot(emu, {})
  servers.push(server)
  return server
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()))
})

const request = { query: 'bun vs deno runtime', mode: 'deep', intent: 'none', patienceMs: 0 }
const fromGrok = (response: Json) => response.results.filter((r: Json) => r.sources.includes('grok')).length

describe('late answers are not wasted (server)', () => {
  it('answers without the late engine, then the next identical search gets its results from the cache', async () => {
    emu.latency('grok', 1500)
    const srv = await start()
    const first = await (await srv.call('/v1/search', { json: request })).json()
    expect(first.providers.grok).toMatchObject({ status: 'late', late_calls: 1 })
    expect(fromGrok(first)).toBe(0)
    // The late call runs on in the background and its response replaces the cached one.
    await vi.waitFor(
      async () => {
        const next = await (await srv.call('/v1/search', { json: request })).json()
        expect(next.cached).toBe(true)
        expect(next.providers.grok).toMatchObject({ status: 'ok', calls: 1 })
        expect(next.providers.grok.late_calls).toBeUndefined()
        expect(fromGrok(next)).toBeGreaterThan(0)
      },
      { timeout: 15_000, interval: 200 },
    )
    // Grok was asked once: by the first search, whose call finished in the background.
    expect(emu.count('grok')).toBe(1)
  }, 30_000)

  it('keeps streaming the late engine: its progress and results after done, then update', async () => {
    emu.latency('grok', 800)
    const srv = await start()
    const res = await srv.call('/v1/search', { json: request, headers: { accept: 'text/event-stream' } })
    expect(res.status).toBe(200)
    const text = await res.text()
    const events = [...text.matchAll(/^event: (\w+)\ndata: (.*)$/gm)].map((m) => ({
      type: m[1]!,
      data: JSON.parse(m[2] as string) as Json,
    }))
    const types = events.map((e) => e.type)
    const done = types.indexOf('done')
    expect(types.indexOf('late')).toBeGreaterThan(-1)
    expect(types.indexOf('late')).toBeLessThan(done)
    expect(events[types.indexOf('late')]!.data.providers).toContain('grok')
    expect(events[done]!.data.response.providers.grok.status).toBe('late')
    const after = events.slice(done + 1)
    expect(after.some((e) => e.type === 'progress' && e.data.progress.provider === 'grok')).toBe(true)
    expect(after.at(-1)!.type).toBe('update')
    const full = after.at(-1)!.data.response
    expect(full.providers.grok).toMatchObject({ status: 'ok' })
    expect(fromGrok(full)).toBeGreaterThan(0)
  }, 30_000)

  it.each([
    ['POST', { ...request, patienceMs: -1 }, 'patienceMs'],
    ['POST', { ...request, wait: 'some' }, 'wait'],
    ['GET', '/v1/search?q=bun&patience=soon', 'patience'],
    ['GET', '/v1/search?q=bun&wait=some', 'wait'],
  ] as const)('%s refuses a bad wait or patience with a 400 naming it (%j)', async (method, input, field) => {
    const srv = await start()
    const res =
      method === 'POST'
        ? await srv.call('/v1/search', { json: input })
        : await srv.call(input as string, { method: 'GET' })
    expect(res.status).toBe(400)
    expect(JSON.stringify(await res.json())).toContain(field)
  })
})
