import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { ProviderError } from './errors.js'
import { parseResponseShape } from './response-shape.js'

const Schema = z.looseObject({ results: z.array(z.looseObject({ url: z.string(), rank: z.number() })) })

describe('parseResponseShape', () => {
  it('returns a body of the right shape as parsed', () => {
    const body = { results: [{ url: 'https://a.example', rank: 1 }], extra: true }
    expect(parseResponseShape('brave', Schema, body)).toEqual(body)
  })

  it('throws a bad_response ProviderError naming the service and the first three places only', () => {
    const body = { results: [1, 2, 3, 4].map((rank) => ({ rank })) }
    let thrown: unknown
    try {
      parseResponseShape('exa', Schema, body)
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(ProviderError)
    const error = thrown as ProviderError
    expect(error.kind).toBe('bad_response')
    expect(error.provider).toBe('exa')
    expect(error.message).toMatch(/^exa response did not have the expected shape \(results\.0\.url: /)
    expect(error.message.match(/results\.\d\.url/g)).toEqual(['results.0.url', 'results.1.url', 'results.2.url'])
  })

  it('names the root when the body is not an object', () => {
    expect(() => parseResponseShape('tavily', Schema, 'nope')).toThrow(/\(\(root\): /)
  })
})
