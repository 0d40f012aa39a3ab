import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { apiKeyId } from '@search-layer/core/config'
import { type Emulator, readRecorded, startEmulator } from '@search-layer/testkit'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  type KeyState,
  type SearchLayerOptions,
  createFileKeyStateStore,
  createMemoryKeyStateStore,
  createSearchLayer,
} from '../src/index.js'

// Issue 36 items 1 and 3: waits read from an upstream (Retry-After, reset headers, replayed cassettes, stored key
// state) never rest a key beyond the configured longest rest, never reach a timer out of Node's range, never
// reach a date that cannot be formatted.

const KEY_ONE = 'BSAwaits-first-key-00000001'
const KEY_TWO = 'BSAwaits-second-key-0000002'
const HOUR = 60 * 60_000
const DIGITS_400 = '9'.repeat(400)
const braveBody = readRecorded(
  new URL('./fixtures/recorded/', import.meta.url),
  'sk--brave_what_is_the_semantic_kernel',
).body

let emu: Emulator
let home: string
const overflows: string[] = []
const onWarning = (warning: Error) => {
  if (warning.name === 'TimeoutOverflowWarning') overflows.push(warning.message)
}
beforeAll(async () => {
  emu = await startEmulator({ keys: { brave: [KEY_ONE, KEY_TWO] } })
  home = mkdtempSync(join(tmpdir(), 'sl-waits-'))
  process.on('warning', onWarning)
})
afterAll(async () => {
  process.off('warning', onWarning)
  await emu.close()
})
beforeEach(() => {
  emu.reset()
  overflows.length = 0
})
// Node emits warnings on the next tick: give any a chance to arrive before the test's own checks end.
afterEach(async () => {
  await new Promise((resolve) => setTimeout(resolve, 20))
  expect(overflows).toEqual([])
})

const braveLayer = (keys: string, overrides: SearchLayerOptions = {}, env: Record<string, string> = {}) =>
  createSearchLayer({
    env: { HOME: home, BRAVE_API_KEY: keys, BRAVE_API_URL: emu.urls.brave, ...env },
    cache: false,
    providerRetries: 0,
    ...overrides,
  })
const search = (query: string, deadlineMs = 6000) => ({
  query,
  sources: ['brave'],
  intent: 'none' as const,
  deadlineMs,
})
const restOf = async (layer: ReturnType<typeof braveLayer>, label: RegExp) => {
  const key = (await layer.status())[0]!.keys.find((k) => label.test(k.label))!
  return key.restingUntil === undefined ? 0 : Date.parse(key.restingUntil) - Date.now()
}
const RATE_LIMITED_BODY = JSON.stringify({
  type: 'ErrorResponse',
  error: { code: 'RATE_LIMITED', status: 429, detail: 'Request rate limit exceeded for plan.' },
})
const rateLimited = (retryAfter: string) => ({
  status: 429,
  body: RATE_LIMITED_BODY,
  headers: { 'retry-after': retryAfter },
})
const ignoredWarning = expect.stringMatching(/^brave sent a wait that is not a number, negative or over a year away/)

describe('a 429 whose Retry-After asks for too long', () => {
  it.each([
    ['315360000 seconds (ten years)', '315360000'],
    ['an HTTP date in 9999', 'Fri, 31 Dec 9999 23:59:59 GMT'],
    ['two days', String(2 * 86_400)],
  ])('%s rests the key an hour at most, in memory and in the store', async (_name, retryAfter) => {
    const keyState = createMemoryKeyStateStore()
    const layer = braveLayer(`${KEY_ONE},${KEY_TWO}`, { rateLimits: false, keyState })
    emu.fault('brave', { key: KEY_ONE, reply: rateLimited(retryAfter) })
    const res = await layer.search(search('rust async'))
    expect(res.providers.brave).toMatchObject({ status: 'ok' })
    const rest = await restOf(layer, /^key #1/)
    expect(rest).toBeGreaterThan(0)
    expect(rest).toBeLessThanOrEqual(HOUR)
    const stored = await keyState.get('brave', apiKeyId(KEY_ONE))
    expect(stored!.restUntil! - Date.now()).toBeLessThanOrEqual(HOUR)
  })

  it('rests no longer than maxKeyRestMs, or SEARCH_LAYER_MAX_KEY_REST_MS', async () => {
    for (const layer of [
      braveLayer(`${KEY_ONE},${KEY_TWO}`, { rateLimits: false, maxKeyRestMs: 120_000 }),
      braveLayer(`${KEY_ONE},${KEY_TWO}`, { rateLimits: false }, { SEARCH_LAYER_MAX_KEY_REST_MS: '120000' }),
    ]) {
      emu.reset()
      emu.fault('brave', { status: 429, key: KEY_ONE, retryAfterSec: 86_400 })
      await layer.search(search('rust async'))
      const rest = await restOf(layer, /^key #1/)
      expect(rest).toBeGreaterThan(100_000)
      expect(rest).toBeLessThanOrEqual(120_000)
    }
  })

  it('refuses a longest rest that is not a whole number of ms from 1 s, naming the variable', () => {
    for (const bad of ['1h', '-5', '0', '1e400', '99999999999'])
      expect(() => braveLayer(KEY_ONE, {}, { SEARCH_LAYER_MAX_KEY_REST_MS: bad })).toThrow(
        /^SEARCH_LAYER_MAX_KEY_REST_MS=.* must be a whole number of milliseconds from 1000 to 2147483647/,
      )
    expect(() => braveLayer(KEY_ONE, { maxKeyRestMs: Number.POSITIVE_INFINITY })).toThrow(/^maxKeyRestMs must be/)
  })
})

describe('a Retry-After of 400 digits (Infinity once read)', () => {
  it('is ignored with one warning naming the provider; status and later searches keep working', async () => {
    const layer = braveLayer(KEY_ONE)
    emu.fault('brave', { times: 1, reply: rateLimited(DIGITS_400) })
    const first = await layer.search(search('rust async'))
    expect(first.providers.brave?.error?.kind).toBe('rate_limited')
    expect(first.warnings.filter((w) => w.startsWith('brave sent a wait'))).toEqual([ignoredWarning])
    // Before the fix, formatting the key's Infinity retry time threw "Invalid time value" here and in every search.
    const status = await layer.status()
    expect(status[0]!.keys[0]!.resting).toBe(false)
    const second = await layer.search(search('tokio runtime'))
    expect(second.providers.brave).toMatchObject({ status: 'ok' })
  })
})

describe('a 200 with a huge Retry-After', () => {
  it.each([
    ['400 digits', DIGITS_400],
    ['two days', String(2 * 86_400)],
  ])('%s: no timer overflows and the next search ends well within its deadline', async (_name, retryAfter) => {
    const layer = braveLayer(KEY_ONE)
    emu.fault('brave', { times: 1, reply: { body: braveBody, headers: { 'retry-after': retryAfter } } })
    const first = await layer.search(search('rust async'))
    expect(first.providers.brave).toMatchObject({ status: 'ok' })
    const started = Date.now()
    // Bounds halfway to the deadline: a search held by the header waits the whole deadline, however fast the host.
    const next = await layer.search(search('tokio runtime', 10_000))
    expect(Date.now() - started).toBeLessThan(5_000)
    expect(next.providers.brave).toBeDefined()
    await layer.status()
  })
})

describe('a rate limit too slow to be meant', () => {
  it('1e-300 calls a second is not taken as the pace: no timer overflows, the next search is not held', async () => {
    const layer = braveLayer(KEY_ONE)
    const headers = { 'x-ratelimit-limit': '1e-300, 15000', 'x-ratelimit-remaining': '0, 14000' }
    emu.fault('brave', { times: 1, reply: { body: braveBody, headers } })
    await layer.search(search('rust async'))
    const [brave] = await layer.status()
    expect(brave!.keys[0]!.pace).toMatchObject({ perSecond: 1 })
    const started = Date.now()
    // At most the 1 s pace is waited; a search held by the header waits the whole deadline.
    const next = await layer.search(search('tokio runtime', 10_000))
    expect(Date.now() - started).toBeLessThan(5_000)
    expect(next.providers.brave).toMatchObject({ status: 'ok' })
  })
})

describe('a shared pace store that answers with a slot years ahead', () => {
  it('skips the call at once: no timer overflows, the search ends well within its deadline', async () => {
    const layer = createSearchLayer({
      env: { HOME: home, HN_API_URL: emu.urls.hackernews },
      cache: false,
      providerRetries: 0,
      rateLimits: { hackernews: { perSecond: 1, burst: 1 } },
      // Redis holding anything: a slot no timer can wait for, whatever the deadline asked.
      paceStore: { reserve: async () => Date.now() + 1e15 },
    })
    const started = Date.now()
    const res = await layer.search({ query: 'rust async', sources: ['hackernews'], intent: 'none', deadlineMs: 10_000 })
    expect(Date.now() - started).toBeLessThan(5_000)
    expect(res.providers.hackernews).toMatchObject({ status: 'error', error: { kind: 'timeout' } })
    expect(emu.requests.filter((r) => r.service === 'hackernews')).toHaveLength(0)
  })
})

describe('a tampered key-state file', () => {
  it('rests a key an hour at most, drops times no date can hold, and is rewritten', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'sl-waits-state-')), 'key-state.json')
    const now = Date.now()
    const tampered: KeyState = {
      restUntil: Date.parse('9999-12-31T00:00:00Z'),
      lastError: { kind: 'rate_limited', message: 'brave rate limit hit' },
      limits: { learnedAt: now, remaining: 0, resetAt: now + 10 * 365 * 86_400_000, quotaResetAt: 8e15 },
    }
    writeFileSync(file, JSON.stringify({ [`brave:${apiKeyId(KEY_ONE)}`]: tampered }))
    const keyState = createFileKeyStateStore({ file })
    const layer = braveLayer(`${KEY_ONE},${KEY_TWO}`, { rateLimits: false, keyState })
    const rest = await restOf(layer, /^key #1/)
    expect(rest).toBeGreaterThan(0)
    expect(rest).toBeLessThanOrEqual(HOUR)
    const res = await layer.search(search('rust async'))
    expect(res.providers.brave).toMatchObject({ status: 'ok' })
    // The search's calls went to the second key; the first key's state, rewritten at its next save, is bounded.
    await layer.search(search('deno vs bun'))
    const stored = JSON.parse(readFileSync(file, 'utf8'))[`brave:${apiKeyId(KEY_ONE)}`] as KeyState | undefined
    if (stored?.restUntil !== undefined) expect(stored.restUntil - Date.now()).toBeLessThanOrEqual(HOUR)
  })

  it('a time beyond what a date can hold makes the entry unreadable, not the status page', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'sl-waits-state-')), 'key-state.json')
    const tampered = { restUntil: 1e300, limits: { learnedAt: 1e300 } }
    writeFileSync(file, JSON.stringify({ [`brave:${apiKeyId(KEY_ONE)}`]: tampered }))
    const layer = braveLayer(KEY_ONE, { keyState: createFileKeyStateStore({ file }) })
    const [brave] = await layer.status()
    expect(brave!.keys[0]).toMatchObject({ resting: false })
  })
})

describe('a tampered cassette', () => {
  it('replays a Retry-After of 400 digits as no wait at all', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sl-waits-cassettes-'))
    const recordEnv = { SEARCH_LAYER_RECORD: dir }
    await braveLayer(KEY_ONE, { rateLimits: false }, recordEnv).search(search('rust async'))
    for (const name of readdirSync(dir)) {
      const cassette = JSON.parse(readFileSync(join(dir, name), 'utf8'))
      cassette.response.headers['retry-after'] = DIGITS_400
      cassette.response.headers['x-ratelimit-reset'] = '253402300799, -4'
      writeFileSync(join(dir, name), JSON.stringify(cassette))
    }
    const layer = braveLayer(KEY_ONE, {}, { SEARCH_LAYER_REPLAY: dir })
    const replayed = await layer.search(search('rust async'))
    expect(replayed.providers.brave).toMatchObject({ status: 'ok' })
    expect(replayed.warnings).toContainEqual(ignoredWarning)
    const [brave] = await layer.status()
    expect(brave!.keys[0]!.resting).toBe(false)
    const started = Date.now()
    await layer.search(search('rust async'))
    expect(Date.now() - started).toBeLessThan(3_000)
  })
})
