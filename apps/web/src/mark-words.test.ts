import { describe, expect, it } from 'vitest'
import { markWords, queryTerms } from './mark-words.js'

const marked = (text: string, query: string) =>
  markWords(text, query)
    .filter((p) => p.marked)
    .map((p) => p.text)

describe('markWords', () => {
  it('marks the query words at word starts, any case, and keeps every character', () => {
    const text = 'Bun and Deno: bun.sh vs deno.com; Bundler is not Bun. Runtimes differ.'
    const pieces = markWords(text, 'Bun vs Deno runtime')
    expect(pieces.map((p) => p.text).join('')).toBe(text)
    expect(marked(text, 'Bun vs Deno runtime')).toEqual(['Bun', 'Deno', 'bun', 'deno', 'Bun', 'Bun', 'Runtime'])
  })

  it('marks Chinese query words by their two-character pieces', () => {
    expect(marked('量子计算利用叠加和纠缠进行运算。', '量子计算原理')).toEqual(['量子', '计算'])
    expect(queryTerms('Rust 异步运行时')).toEqual(['rust', '异步', '步运', '运行', '行时'])
  })

  it('marks nothing for a query of stop words, and treats the query as text, not a pattern', () => {
    expect(marked('what is it', 'what is it')).toEqual([])
    expect(marked('C++ (and Rust) or c+++ .* d', 'c++ (rust) .*')).toEqual(['C++', 'Rust', 'c++'])
  })
})
