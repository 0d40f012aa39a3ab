import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { braveErrorSchema, BraveSearchResponseSchema, BraveWebResultSchema } from './schema.js'

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../test/fixtures/${name}`, import.meta.url), 'utf8'))

describe('Brave schemas', () => {
  it('accept a realistic web search answer and keep unknown fields', () => {
    const parsed = BraveSearchResponseSchema.parse(fixture('web-search.json'))
    expect(parsed.web?.results).toHaveLength(4)
    expect(parsed).toHaveProperty('mixed')
    const first = BraveWebResultSchema.parse(parsed.web?.results?.[0])
    expect(first).toMatchObject({ page_age: '2025-10-02T14:10:05', subtype: 'generic' })
  })

  it('accept nulls where Brave omits or nulls fields', () => {
    expect(
      BraveWebResultSchema.safeParse({ url: 'https://a.example', title: null, description: null, profile: null })
        .success,
    ).toBe(true)
    expect(BraveSearchResponseSchema.safeParse({ type: 'search', web: null }).success).toBe(true)
  })

  it.each(['error-422-token.json', 'error-422-validation.json', 'error-429-rate.json', 'error-429-quota.json'])(
    'parse the error envelope in %s',
    (name) => {
      const parsed = braveErrorSchema().parse(fixture(name))
      expect(parsed.type).toBe('ErrorResponse')
      expect(parsed.error.code).toMatch(/^[A-Z_]+$/)
    },
  )

  it('reject a result whose title is not text', () => {
    expect(BraveWebResultSchema.safeParse({ url: 'https://a.example', title: 7 }).success).toBe(false)
  })
})
