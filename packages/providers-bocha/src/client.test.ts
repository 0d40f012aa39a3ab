import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { resolveProviderDefinition, validateProviderDefinition } from '@search-layer/core'
import { faultTimeLimit, providerFailure } from '@search-layer/testkit'
import { useEmulator } from '@search-layer/testkit/vitest'
import { describe, expect, it } from 'vitest'
import { createBochaProvider } from './client.js'
import { bochaDefinition } from './definition.js'

const emu = useEmulator()

describe('createBochaProvider against the emulator', () => {
  it('POSTs /v1/web-search with the key as Bearer and maps summaries and Beijing dates', async () => {
    const res = await createBochaProvider({ env: emu.env }).search({
      query: '异步 运行时 rust',
      num: 5,
      freshness: 'py',
    })
    const sent = emu.lastRequest('bocha')
    expect(sent.method).toBe('POST')
    expect(sent.path).toBe('/bocha/v1/web-search')
    expect(sent.headers.authorization).toBe(`Bearer ${emu.keys.bocha}`)
    expect(sent.body).toEqual({ query: '异步 运行时 rust', freshness: 'oneYear', summary: true, count: 5 })
    expect(res.results).toHaveLength(5)
    for (const r of res.results) {
      expect(r.provider).toBe('bocha')
      expect(new Date(r.publishedAt!).toISOString()).toBe(r.publishedAt)
      expect(typeof r.extra?.summary).toBe('string')
    }
    expect(res.cost).toEqual({ credits: 1, basis: 'estimated' })
  })

  it('reads the key at call time and reports config when none is set', async () => {
    const home = mkdtempSync(join(tmpdir(), 'bocha-home-'))
    const env = { HOME: home, SEARCH_LAYER_CONFIG: join(home, 'none.json'), BOCHA_API_URL: emu.urls.bocha }
    const bocha = createBochaProvider({ env })
    expect(bocha.isConfigured()).toBe(false)
    const err = await providerFailure(bocha.search({ query: 'x' }))
    expect(err).toMatchObject({ kind: 'config' })
    expect(err.message).toContain('BOCHA_API_KEY')
    expect(emu.count('bocha')).toBe(0)
  })

  it('replays the documented example through the real client path', async () => {
    emu.fault('bocha', {
      reply: {
        body: readFileSync(
          new URL('../test/fixtures/bocha-docs-example--web-search-alibaba-esg-2024.json', import.meta.url),
        ),
        headers: { 'content-type': 'application/json' },
      },
    })
    const res = await createBochaProvider({ env: emu.env }).search({ query: '阿里巴巴2024年的esg报告', num: 10 })
    expect(res.results).toHaveLength(7)
  })

  it('maps a wrong key (401) to auth without leaking it', async () => {
    const key = 'sk-wrongwrongwrongwrong0000000001'
    const err = await providerFailure(createBochaProvider({ env: emu.env, apiKey: key }).search({ query: 'x' }))
    expect(err).toMatchObject({ kind: 'auth', status: 401 })
    expect(err.message).not.toContain(key)
    expect(JSON.stringify(err)).not.toContain(key)
  })

  it.each([
    ['403 insufficient balance', { status: 403 }, { kind: 'quota', retryable: false }],
    ['429', { status: 429, retryAfterSec: 2 }, { kind: 'rate_limited', retryAfterMs: 2000 }],
    ['400', { status: 400 }, { kind: 'bad_request', retryable: false }],
    ['500', { status: 500 }, { kind: 'upstream', retryable: true }],
    ['hang', { hang: true }, { kind: 'timeout' }],
    ['malformed JSON', { malformedJson: true }, { kind: 'bad_response' }],
    ['endless body', { endlessBody: true }, { kind: 'bad_response' }],
  ] as const)('fault %s → %j, key never shown', async (_label, fault, expected) => {
    emu.fault('bocha', fault)
    const bocha = createBochaProvider({ env: emu.env, retries: 0, timeoutMs: faultTimeLimit(fault), maxBytes: 200_000 })
    const err = await providerFailure(bocha.search({ query: 'x' }))
    expect(err).toMatchObject({ provider: 'bocha', ...expected })
    expect(err.message).not.toContain(emu.keys.bocha)
  })

  it('has a keyed definition', () => {
    expect(bochaDefinition).toMatchObject({ id: 'bocha', env: { apiKey: ['BOCHA_API_KEY'], baseUrl: 'BOCHA_API_URL' } })
    expect(bochaDefinition.keyless).toBeUndefined()
    expect(validateProviderDefinition(bochaDefinition, 'bocha')).toEqual(resolveProviderDefinition(bochaDefinition))
    expect(bochaDefinition.create().name).toBe('bocha')
  })
})
