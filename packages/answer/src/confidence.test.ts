import { InputError } from '@search-layer/core'
import { describe, expect, it } from 'vitest'
import { MDN, NODE, passage, RUST } from '../test/passage.js'
import { answerConfidence } from './confidence.js'
import { ConfidenceSchema } from './schema.js'

const counts = (supported: number, unverified = 0, uncited = 0) => ({ supported, unverified, uncited })

describe('answerConfidence', () => {
  it('is high when every sentence is supported by three sites', () => {
    const out = answerConfidence({ counts: counts(4), passages: [NODE, RUST, MDN] })
    ConfidenceSchema.parse(out)
    expect(out).toEqual({
      level: 'high',
      score: 1,
      reasons: [
        '4 of 4 sentences supported by a verified citation',
        'cited passages come from 3 sites: nodejs.org, blog.rust-lang.org, developer.mozilla.org',
      ],
    })
  })

  it('weighs one site less than several, counting folded sources as sites', () => {
    const one = answerConfidence({ counts: counts(4), passages: [NODE] })
    expect(one).toMatchObject({ level: 'medium', score: 0.65 })
    const folded = {
      ...NODE,
      sources: [
        { url: NODE.url, title: 't', resultRank: 1, start: 0, end: 1 },
        { url: 'https://www.infoq.com/news/node-18', title: 't', resultRank: 3, start: 0, end: 1 },
      ],
    }
    expect(answerConfidence({ counts: counts(4), passages: [folded] })).toMatchObject({ level: 'high', score: 0.85 })
  })

  it('drops with the share of supported sentences, and an unverified sentence caps it at medium', () => {
    expect(answerConfidence({ counts: counts(2, 0, 2), passages: [NODE, RUST, MDN] })).toMatchObject({
      level: 'medium',
      score: 0.5,
    })
    const unverified = answerConfidence({ counts: counts(9, 1), passages: [NODE, RUST, MDN] })
    expect(unverified).toMatchObject({ level: 'medium', score: 0.9 })
    expect(unverified.reasons).toContain('1 sentence cites a passage or quote that was not found')
  })

  it('counts one engine against agreement when the caller says how many found the pages', () => {
    const out = answerConfidence({ counts: counts(4), passages: [NODE, RUST, MDN], engines: 1 })
    expect(out).toMatchObject({ level: 'high', score: 0.9 })
    expect(out.reasons).toContain('the cited pages were found by 1 engine')
  })

  it('is none when no sentence is supported or there is none', () => {
    expect(answerConfidence({ counts: counts(0, 1, 2), passages: [] })).toMatchObject({ level: 'none', score: 0 })
    expect(answerConfidence({ counts: counts(0), passages: [] })).toEqual({
      level: 'none',
      score: 0,
      reasons: ['the answer has no sentence to check'],
    })
  })

  it('reads two pages of one host as one site', () => {
    const other = passage('p5', 'x', 'https://nodejs.org/api/globals.html')
    expect(answerConfidence({ counts: counts(1), passages: [NODE, other] }).score).toBe(0.65)
  })

  it('throws InputError for negative counts', () => {
    expect(() => answerConfidence({ counts: counts(-1), passages: [] })).toThrow(InputError)
  })
})
