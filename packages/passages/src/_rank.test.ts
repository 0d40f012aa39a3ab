import { describe, expect, it } from 'vitest'
import { indexTerm } from './_rank.js'
import { searchTerms } from './_search-terms.js'

describe('indexTerm', () => {
  it('keeps terms of alphabets as they are', () => {
    for (const term of ['deploy', 'x86', '2024', 'straße', 'привет', 'ελλάδα', 'é']) expect(indexTerm(term)).toBe(term)
  })

  it('writes a CJK term in hex, so a radix tree node of CJK terms has at most 16 children', () => {
    const terms = searchTerms('翱翔于距地球数千公里的太空中 ひらがなカタカナ 한국어 𠀀𠀁 々〇')
    expect(terms.length).toBeGreaterThan(10)
    for (const term of terms) expect(indexTerm(term)).toMatch(/^~(?:[0-9a-f]{6})+$/)
    expect(indexTerm('中国')).toBe('~004e2d0056fd')
    expect(indexTerm('𠀀')).toBe('~020000')
  })

  it('is one to one: different terms never share an indexed form', () => {
    const terms = [...new Set(searchTerms('中国 中 国 中国人 人 日本語 にほん 한국 deploy 4e2d ~ 𠀀中'))]
    const indexed = terms.map(indexTerm)
    expect(new Set(indexed).size).toBe(terms.length)
  })
})
