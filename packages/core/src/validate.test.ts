import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { InputError } from './errors.js'
import { formatIssues, parseInput } from './validate.js'

const schema = z.strictObject({
  urls: z.array(z.string()).min(1, 'give at least one URL').max(3, 'at most 3 URLs'),
  query: z.string().min(2, 'too short').max(5, 'at most 5 characters').optional(),
  tags: z.array(z.string().max(4, 'tag too long')).max(2, 'at most 2 tags').optional(),
})

const messages = (value: unknown) => {
  const parsed = schema.safeParse(value)
  return parsed.success ? [] : formatIssues(parsed.error).map((i) => `${i.path}: ${i.message}`)
}

describe('formatIssues', () => {
  it.each([
    // A value with a length of the wrong type trips the length checks too; only the type is reported.
    [{ urls: 'https://a.example/long' }, ['urls: Invalid input: expected array, received string']],
    [{ urls: ['a'], query: ['a', 'b', 'c', 'd', 'e', 'f'] }, ['query: Invalid input: expected string, received array']],
    [{ urls: ['a'], tags: 'abcdefgh' }, ['tags: Invalid input: expected array, received string']],
    [{ urls: 5 }, ['urls: Invalid input: expected array, received number']],
  ])('%j reports the wrong type alone', (value, expected) => {
    expect(messages(value)).toEqual(expected)
  })

  it('says a field left out is required, with its type, at any depth', () => {
    const nested = z.object({ query: z.string(), read: z.object({ pages: z.number() }), tags: z.array(z.string()) })
    const parsed = nested.safeParse({ read: {} })
    expect(parsed.success ? [] : formatIssues(parsed.error)).toEqual([
      { path: 'query', message: 'required, expected string' },
      { path: 'read.pages', message: 'required, expected number' },
      { path: 'tags', message: 'required, expected array' },
    ])
    expect(messages({})).toEqual(['urls: required, expected array'])
    // A value of the wrong type keeps zod's words: it was given, just not right.
    expect(messages({ urls: null })).toEqual(['urls: Invalid input: expected array, received null'])
  })

  it('keeps every issue of values of the right type, and issues at other paths', () => {
    expect(messages({ urls: ['a', 'b', 'c', 'd'], query: 'x', tags: ['abcdef'] })).toEqual([
      'urls: at most 3 URLs',
      'query: too short',
      'tags.0: tag too long',
    ])
    expect(messages({ urls: 'abcdefgh', query: 'toolong' })).toEqual([
      'urls: Invalid input: expected array, received string',
      'query: at most 5 characters',
    ])
  })

  it('parseInput throws an InputError carrying the same issues', () => {
    let thrown: unknown
    try {
      parseInput(schema, { urls: 'https://a.example/long' }, 'refs')
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(InputError)
    expect(thrown).toMatchObject({
      message: 'Invalid refs: urls: Invalid input: expected array, received string',
      issues: [{ path: 'urls', message: 'Invalid input: expected array, received string' }],
    })
  })
})
