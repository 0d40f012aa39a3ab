import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createHash } from 'node:crypto'
import { apiKeyId, apiKeyLabel, splitApiKeys } from './api-keys.js'

describe('splitApiKeys', () => {
  it.each([
    ['one', 'BSA-one', ['BSA-one']],
    ['a comma list', 'k1,k2', ['k1', 'k2']],
    ['spaces and blanks', ' k1 , ,k2 ,', ['k1', 'k2']],
    ['repeats', 'k1,k2,k1', ['k1', 'k2']],
    ['only commas', ' , ,', []],
    ['a config-file list', ['k1', 'k2,k3', ''], ['k1', 'k2', 'k3']],
    ['nothing', undefined, []],
  ])('%s', (_, input, expected) => {
    expect(splitApiKeys(input)).toEqual(expected)
  })

  it('never throws, never returns an empty or separator-holding key, and is idempotent', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const keys = splitApiKeys(text)
        for (const key of keys) expect(key).toMatch(/^[^\s,]+$/)
        expect(splitApiKeys(keys.join(','))).toEqual(keys)
      }),
    )
  })
})

describe('apiKeyId and apiKeyLabel', () => {
  it('name a key by a short hash that holds no part of the key', () => {
    const key = 'BSAsecret-value-0123456789'
    const id = apiKeyId(key)
    expect(id).toMatch(/^[0-9a-f]{12}$/)
    expect(apiKeyId(key)).toBe(id)
    expect(apiKeyId(`${key}x`)).not.toBe(id)
    const label = apiKeyLabel(1, key)
    expect(label).toBe(`key #2 (…${id.slice(-4)})`)
    for (let i = 0; i + 4 <= key.length; i++) expect(label).not.toContain(key.slice(i, i + 4))
  })

  // Key state on disk and in Redis is stored under these ids: they must stay SHA-256's, whatever computes them.
  it.each(['BSAsecret-value-0123456789', 'tvly-ключ-密钥', ''])('is the first 12 hex digits of SHA-256 (%j)', (key) => {
    expect(apiKeyId(key)).toBe(createHash('sha256').update(key).digest('hex').slice(0, 12))
  })
})
