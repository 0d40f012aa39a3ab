import { describe, expect, it } from 'vitest'
import { type SynthesisInput, synthesize, toJSON, toMarkdown, toText } from './index.js'

const result = (title: string, url: string, snippet: string, sources: string[], score: number) => ({
  title,
  url,
  snippet,
  sources,
  score,
})

// What the emulator's keyless sources ranked first for "Bun vs Deno" when the answer line quoted them: a Hacker News
// story and an MDN page that name neither runtime, ahead of the comparison page every engine agreed on.
const BUN_VS_DENO: SynthesisInput = {
  query: 'Bun vs Deno',
  results: [
    result(
      'Show HN: a RISC-V laptop you can build yourself',
      'https://news.ycombinator.com/item?id=41000001',
      'Show HN: a RISC-V laptop with an open bootloader and a mainline kernel.',
      ['hackernews'],
      0.83,
    ),
    result(
      'WebTransport API - Web APIs | MDN',
      'https://developer.mozilla.org/en-US/docs/Web/API/WebTransport_API',
      'The WebTransport API provides a modern update to WebSockets, transmitting data over HTTP/3 with QUIC.',
      ['duckduckgo'],
      0.82,
    ),
    result(
      'Bun vs Deno vs Node.js in 2026: real-world benchmarks | Medium',
      'https://medium.com/@jsperf/bun-vs-deno-vs-node-benchmarks-2026',
      'We benchmarked Bun vs Deno vs Node.js on HTTP throughput, cold start, npm install and test runner speed.',
      ['brave', 'exa', 'tavily', 'grok'],
      0.81,
    ),
    result(
      'Bun 1.3 | Bun Blog',
      'https://bun.sh/blog/bun-v1.3',
      'Bun 1.3 adds a built-in Redis client and improved Node.js compatibility.',
      ['brave', 'exa'],
      0.6,
    ),
  ],
}

const firstLine = (text: string) => text.split('\n')[0]!

describe('the answer line without a written answer', () => {
  it('leads with the on-topic result the engines agree on, not the off-topic ones ranked above it', () => {
    const s = synthesize(BUN_VS_DENO)
    expect(s.lead).toMatchObject({ basis: 'results', citations: [3], passages: [] })
    expect(firstLine(toMarkdown(s))).toBe(
      'We benchmarked Bun vs Deno vs Node.js on HTTP throughput, cold start, npm install and test runner speed. [3]',
    )
    expect(firstLine(toText(s))).toBe(
      'In short: We benchmarked Bun vs Deno vs Node.js on HTTP throughput, cold start, npm install and test runner speed. [3]',
    )
    expect(toMarkdown(s).split('\n\n')[0]).not.toMatch(/RISC-V|WebTransport/)
  })

  it('takes the best passage of the pages read, citing its result and its passage id', () => {
    const s = synthesize({
      ...BUN_VS_DENO,
      passages: [
        // Best-scored but about another subject: passed over.
        {
          id: 'p1',
          url: 'https://news.ycombinator.com/item?id=41000001',
          text: 'The laptop boots in 4 s.',
          resultRank: 1,
        },
        {
          id: 'p2',
          url: 'https://medium.com/@jsperf/bun-vs-deno-vs-node-benchmarks-2026',
          heading: 'HTTP throughput',
          text: 'We ran each server for sixty seconds on one machine. Bun served 110k requests per second and Deno 85k on the same machine.',
          resultRank: 3,
        },
      ],
    })
    expect(s.lead).toMatchObject({ basis: 'passages', citations: [3], passages: ['p2'] })
    expect(firstLine(toMarkdown(s))).toBe(
      'Bun served 110k requests per second and Deno 85k on the same machine. [3] [p2]',
    )
  })

  it('falls back to the results when no passage is on topic, and reads the same with reading off', () => {
    const offTopic = [{ id: 'p1', url: 'https://x.example/', text: 'Cookies help us improve the site.', resultRank: 1 }]
    expect(synthesize({ ...BUN_VS_DENO, passages: offTopic }).lead).toEqual(synthesize(BUN_VS_DENO).lead)
  })

  it('says plainly that no result is on topic instead of quoting one', () => {
    const s = synthesize({ ...BUN_VS_DENO, results: BUN_VS_DENO.results.slice(0, 2) })
    expect(s.lead).toEqual({ text: '', citations: [], passages: [], basis: 'none' })
    expect(firstLine(toMarkdown(s))).toBe(
      'None of the top results is clearly about "Bun vs Deno"; they are listed below as found, with no answer drawn from them.',
    )
    expect(toText(s)).not.toMatch(/^In short/m)
    expect(toMarkdown(s)).toContain('1. [Show HN: a RISC-V laptop')
  })

  it('answers a Chinese query from the result that names its words', () => {
    const s = synthesize({
      query: '量子计算的基本原理',
      results: [
        result('今日天气预报', 'https://weather.example.cn/', '明天多云转晴,气温十五到二十度。', ['bocha'], 0.9),
        result(
          '量子计算入门',
          'https://zhuanlan.example.cn/p/1',
          '量子计算利用叠加和纠缠进行运算。量子比特可以同时处于多个状态。',
          ['bocha', 'exa'],
          0.8,
        ),
      ],
    })
    expect(s.language).toBe('zh')
    expect(s.lead).toMatchObject({ basis: 'results', citations: [2] })
    expect(firstLine(toMarkdown(s))).toBe('量子计算利用叠加和纠缠进行运算。 [2]')
    expect(firstLine(toText(s))).toBe('要点: 量子计算利用叠加和纠缠进行运算。 [2]')
  })

  it('says so in Chinese when nothing is on topic', () => {
    const s = synthesize({
      query: '量子计算的基本原理',
      results: [result('今日天气预报', 'https://weather.example.cn/', '明天多云转晴。', ['bocha'], 0.9)],
    })
    expect(firstLine(toMarkdown(s))).toBe(
      '排名靠前的结果都与“量子计算的基本原理”关系不大;以下按原样列出,未从中提炼回答。',
    )
  })

  it('gives way to a provider answer, and is in the JSON form', () => {
    const withAnswer = synthesize({
      ...BUN_VS_DENO,
      answer: 'Bun is faster; Deno is stricter.',
      answerSource: 'tavily',
    })
    expect(withAnswer.lead).toBeNull()
    expect(toJSON(synthesize(BUN_VS_DENO)).lead).toMatchObject({ basis: 'results', citations: [3] })
  })

  it('keeps the answer line inside a small budget', () => {
    const s = synthesize(BUN_VS_DENO, { maxChars: 120 })
    expect(Array.from(toMarkdown(s)).length).toBeLessThanOrEqual(120)
  })
})
