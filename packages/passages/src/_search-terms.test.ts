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

describe('searchTerms and core', () => {
  it("drops core's Chinese stop words among characters and pairs", () => {
    expect(searchTerms('什么是月球')).toEqual(['什', '么', '么是', '是月', '月', '月球', '球'])
  })

  it('treats 々, 〇 and half-width katakana as CJK', () => {
    expect(searchTerms('時々')).toEqual(['時', '時々', '々'])
    expect(searchTerms('ｶﾀｶﾅ')).toEqual(['ｶ', 'ｶﾀ', 'ﾀ', 'ﾀｶ', 'ｶ', 'ｶﾅ', 'ﾅ'])
  })
})
