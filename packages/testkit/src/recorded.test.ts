import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { ProviderError } from '@search-layer/core'
import { describe, expect, it } from 'vitest'
import { providerFailure, readRecorded, TAG_OR_ENTITY } from './recorded.js'

describe('providerFailure', () => {
  it('returns the ProviderError a call rejects with', async () => {
    const error = new ProviderError('slow down', { provider: 'brave', kind: 'rate_limited' })
    await expect(providerFailure(Promise.reject(error))).resolves.toBe(error)
  })

  it('fails the test when the call resolves', async () => {
    await expect(providerFailure(Promise.resolve({ results: [] }))).rejects.toThrow(/but it resolved/)
  })

  it('fails the test when the call rejects with an untyped error', async () => {
    await expect(providerFailure(Promise.reject(new TypeError('boom')))).rejects.toThrow(/expected a ProviderError/)
  })
})

describe('readRecorded', () => {
  it('reads a capture with its sidecar, a missing status meaning 200', () => {
    const dir = mkdtempSync(join(tmpdir(), 'recorded-'))
    writeFileSync(join(dir, 'ok.json'), '{"type":"search"}')
    writeFileSync(join(dir, 'ok.meta.json'), '{"status":null,"headers":null}')
    writeFileSync(join(dir, 'limited.json'), '{"type":"ErrorResponse"}')
    writeFileSync(join(dir, 'limited.meta.json'), '{"status":429,"headers":{"retry-after":"1"}}')
    const url = pathToFileURL(`${dir}/`)
    expect(readRecorded(url, 'ok')).toMatchObject({ status: 200, headers: null, json: { type: 'search' } })
    expect(readRecorded(url, 'limited')).toMatchObject({ status: 429, headers: { 'retry-after': '1' } })
  })
})

describe('TAG_OR_ENTITY', () => {
  it('finds tags and entities, not plain text with angle brackets', () => {
    expect(TAG_OR_ENTITY.test('a <strong>b</strong>')).toBe(true)
    expect(TAG_OR_ENTITY.test('Tom &amp; Jerry')).toBe(true)
    expect(TAG_OR_ENTITY.test('1 < 2 and 3 > 2')).toBe(false)
  })
})
