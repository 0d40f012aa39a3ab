import { describe, expect, it } from 'vitest'
import { searchTerms } from './_search-terms.js'

describe('searchTerms', () => {
  it('lower-cases, drops function words and stems English', () => {
    expect(searchTerms('What are the Released Features of Node.js?')).toEqual(['releas', 'featur', 'node', 'js'])
  })

  it('gives Chinese characters and their overlapping pairs', () => {
    expect(searchTerms('月球喝酒')).toEqual(['月', '月球', '球', '球喝', '喝', '喝酒', '酒'])
  })

  it('separates a CJK run from the Latin letters and digits it touches', () => {
    expect(searchTerms('大约3000万记录 AlphaGo')).toEqual([
      '大',
      '大约',
      '约',
      '3000',
      '万',
      '万记',
      '记',
      '记录',
      '录',
      'alphago',
    ])
  })

  it('keeps digits and other scripts, drops single Latin letters', () => {
    expect(searchTerms('a 7 Ünïcödé naïve x')).toEqual(['7', 'ünïcödé', 'naïve'])
  })
})
