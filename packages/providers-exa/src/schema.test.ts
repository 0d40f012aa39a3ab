import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { exaErrorSchema, ExaResultSchema, ExaSearchResponseSchema } from './schema.js'
import { ExaSearchRequestSchema } from './request-schema.js'

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../test/fixtures/${name}`, import.meta.url), 'utf8'))

describe('Exa schemas', () => {
  it('accept a realistic search answer, null titles included', () => {
    const parsed = ExaSearchResponseSchema.parse(fixture('search.json'))
    expect(parsed.results).toHaveLength(4)
    expect(parsed.costDollars?.total).toBe(0.007)
    expect(ExaResultSchema.parse(parsed.results[1]).title).toBeNull()
  })

  it.each(['error-401.json', 'error-402.json', 'error-400.json'])('parse the error body in %s', (name) => {
    expect(exaErrorSchema().parse(fixture(name))).toMatchObject({
      requestId: expect.any(String),
      tag: expect.stringMatching(/^[A-Z_]+$/),
    })
  })

  it('describe the request body: numResults ≤ 100, known types only', () => {
    const ok = { query: 'q', type: 'auto', numResults: 100, contents: { highlights: { maxCharacters: 500 } } }
    expect(ExaSearchRequestSchema.safeParse(ok).success).toBe(true)
    expect(ExaSearchRequestSchema.safeParse({ ...ok, numResults: 101 }).success).toBe(false)
    expect(ExaSearchRequestSchema.safeParse({ ...ok, type: 'magic' }).success).toBe(false)
  })
})
