import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { tavilyErrorSchema, TavilyResultSchema, TavilySearchResponseSchema } from './schema.js'
import { TavilySearchRequestSchema } from './request-schema.js'

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../test/fixtures/${name}`, import.meta.url), 'utf8'))

describe('Tavily schemas', () => {
  it.each(['search-general.json', 'search-news.json'])('accepts the realistic body %s', (name) => {
    expect(TavilySearchResponseSchema.safeParse(fixture(name)).success).toBe(true)
  })

  it('keeps unknown vendor fields instead of failing', () => {
    const parsed = TavilySearchResponseSchema.parse({ results: [], auto_parameters: { topic: 'general' } })
    expect(parsed).toHaveProperty('auto_parameters')
  })

  it('treats null optional result fields as absent', () => {
    expect(
      TavilyResultSchema.parse({
        url: 'https://a.example',
        title: null,
        content: null,
        score: null,
        published_date: null,
      }),
    ).toMatchObject({
      url: 'https://a.example',
    })
  })

  it('refuses more than 20 results and unknown depths in requests', () => {
    const base = { query: 'q', search_depth: 'basic', topic: 'general', max_results: 5, include_answer: false }
    expect(TavilySearchRequestSchema.safeParse(base).success).toBe(true)
    expect(TavilySearchRequestSchema.safeParse({ ...base, max_results: 21 }).success).toBe(false)
    expect(TavilySearchRequestSchema.safeParse({ ...base, search_depth: 'deep' }).success).toBe(false)
  })

  it.each([
    { detail: { error: 'Unauthorized: missing or invalid API key.' } },
    { detail: 'Not Found' },
    { error: { code: 'RATE_LIMITED', message: 'slow down' } },
  ])('reads error body %j', (body) => {
    expect(tavilyErrorSchema().safeParse(body).success).toBe(true)
  })
})
