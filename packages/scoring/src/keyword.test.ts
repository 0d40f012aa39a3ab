import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { documentText, keywordFromFields, keywordFromText, normalizeText, prepareQueries } from './_text.js'
import { keywordScore } from './index.js'

describe('keywordScore', () => {
  it.each([
    ['all terms present', 'rust async tutorial', 'Async Rust: a tutorial', '', 1],
    ['case-insensitive', 'RUST', 'rust in production', '', 1],
    ['"rust" does not match "trust"', 'rust', 'Building trust in teams', 'We trust our rusty tools', 0],
    ['half the terms', 'rust tokio', 'Rust book', 'chapter one', 0.5],
    ['terms in the snippet count', 'tokio runtime', 'Guide', 'The tokio runtime explained', 1],
    ['stopwords are ignored', 'what is the tokio runtime', 'Tokio runtime', '', 1],
    ['a query of stopwords keeps them', 'what is it', 'What is it?', '', 1],
    ['Go is kept', 'Go generics', 'Generics in Go 1.18', '', 1],
    ['Go does not match "good"', 'go', 'A good read', '', 0],
    ['JS and AI are kept', 'JS AI', 'AI tooling for JS developers', '', 1],
    ['C# is its own token', 'C# records', 'Records in C# 9', '', 1],
    ['C# does not match C', 'C#', 'The C programming language', '', 0],
    ['C++ is its own token', 'c++ modules', 'Modules in C++20', 'C++ modules are here', 1],
    ['k8s is kept', 'k8s ingress', 'K8s Ingress explained', '', 1],
    ['node.js matches', 'node.js streams', 'Node.js Streams', '', 1],
    ['a compound matches its parts', 'gpt 4o', 'GPT-4o system card', '', 1],
    ['plurals fold', 'tutorial', 'Rust tutorials', '', 1],
    ['plural queries fold too', 'tutorials', 'A Rust tutorial', '', 1],
    ['a compound matches inside a longer one', 'gpt-4o', 'GPT-4o-mini pricing', '', 1],
    ['C does not match C#', 'c', 'Learn C# fast', '', 0],
    ['a prefix is not a word', 'java', 'JavaScript basics', '', 0],
    ['CJK 异步 and 教程 count', 'Rust 异步编程教程', 'Rust 异步编程入门教程', '', 1],
    ['CJK 进展 counts', 'Deno 最新进展', 'Deno 2.0 的最新进展', '', 1],
    ['CJK terms missing', '异步教程', 'Rust 同步编程', '', 0],
    ['full-width letters fold (NFKC)', 'rust', 'ＲＵＳＴ 入门', '', 1],
  ])('%s', (_name, query, title, snippet, expected) => {
    expect(keywordScore({ title, snippet }, query)).toBe(expected)
  })

  it('survives null title and snippet', () => {
    expect(keywordScore({ title: null, snippet: null }, 'rust')).toBe(0)
    expect(keywordScore({}, 'rust')).toBe(0)
    expect(keywordScore({ title: 'rust' }, '')).toBe(0)
  })

  it('counts every sub-query, not only the first', () => {
    const result = { title: 'Deno 2.0 release notes', snippet: 'What changed in the runtime' }
    const alone = keywordScore(result, 'deno roadmap status')
    const withSubs = keywordScore(result, 'deno roadmap status', ['deno blog', 'deno 2.0 release notes'])
    expect(alone).toBeCloseTo(1 / 3, 3)
    expect(withSubs).toBeCloseTo((1 / 3 + 1) / 2, 3)
    expect(keywordScore(result, 'deno roadmap status', ['deno 2.0 release notes', 'deno blog'])).toBe(withSubs)
  })

  it('is always in [0,1] with 4 decimals and never throws', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.option(fc.string()),
        fc.option(fc.string()),
        fc.array(fc.string()),
        (q, t, s, subs) => {
          const score = keywordScore({ title: t, snippet: s }, q, subs)
          expect(score).toBeGreaterThanOrEqual(0)
          expect(score).toBeLessThanOrEqual(1)
          expect(Math.round(score * 10_000) / 10_000).toBe(score)
        },
      ),
      { numRuns: 1000 },
    )
  })

  it('matches full-width and mixed-script text, which is NFKC-folded, as well as plain text', () => {
    expect(keywordScore({ title: 'ＲＵＳＴ 异步 编程 教程' }, 'rust 异步')).toBe(1)
    expect(keywordScore({ title: 'Rust 异步编程 — Tokio 教程…' }, 'tokio')).toBe(1)
  })

  it('skips NFKC only for text it cannot change: ASCII, CJK ideographs, Hangul syllables, common punctuation', () => {
    // normalizeText leaves such text unnormalised; NFKC must then be the identity on it, next to anything.
    const stable = fc.oneof(
      fc.integer({ min: 0, max: 0x7f }),
      fc.integer({ min: 0x3400, max: 0x4dbf }),
      fc.integer({ min: 0x4e00, max: 0x9fff }),
      fc.integer({ min: 0xac00, max: 0xd7a3 }),
      fc.constantFrom(0x2013, 0x2014, 0x2018, 0x2019, 0x201c, 0x201d, 0x3001, 0x3002),
      fc.integer({ min: 0x3008, max: 0x300f }),
    )
    fc.assert(
      fc.property(fc.array(stable, { maxLength: 12 }), (codes) => {
        const text = String.fromCharCode(...codes)
        expect(text.normalize('NFKC')).toBe(text)
      }),
      { numRuns: 5000 },
    )
  })
})

describe('keywordFromFields', () => {
  // Text that exercises what a joined title and snippet could otherwise disagree on: word edges at the join,
  // plurals, NFKC forms, a final sigma, combining marks, CJK runs and every case.
  const piece = fc.constantFrom(
    'rust',
    'Rust',
    'RUST',
    'rusts',
    'trust',
    'async',
    'tokio',
    'Tokio',
    'tutorial',
    'tutorials',
    'c++',
    'C#',
    'node.js',
    'k8s',
    'ＲＵＳＴ',
    'ΟΔΟΣ',
    'Σ',
    'σ',
    'e\u0301',
    '\u0301',
    'ﬁ',
    '异步',
    '编程',
    '异步编程',
    '教程',
    '—',
    ' ',
    '  ',
    '\n',
    '-',
    '.',
    's',
    '#',
    '+',
    '1',
    'İ',
    'ǅ',
  )
  const text = fc.array(piece, { maxLength: 8 }).map((pieces) => pieces.join(''))
  const query = fc.array(
    fc.constantFrom('rust', 'async', 'tokio tutorial', 'c++', 'node.js', '异步 编程', 'ΟΔΟΣ', 'rusts', 'what is'),
    { maxLength: 3 },
  )

  it('scores like keywordFromText on the joined document', () => {
    fc.assert(
      fc.property(query, fc.array(query, { maxLength: 3 }), text, text, (main, subs, title, snippet) => {
        const prepared = prepareQueries(
          main.join(' '),
          subs.map((s) => s.join(' ')),
        )
        expect(keywordFromFields(prepared, title, snippet)).toBe(
          keywordFromText(prepared, documentText({ title, snippet })),
        )
      }),
      { numRuns: 5_000 },
    )
  })

  it('normalises like NFKC then lower case', () => {
    fc.assert(
      fc.property(fc.oneof(text, fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' })), (value) => {
        const reference = (
          /[^\x00-\x7f\u2013\u2014\u2018\u2019\u201c\u201d\u3001\u3002\u3008-\u300f\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7a3]/.test(
            value,
          )
            ? value.normalize('NFKC')
            : value
        ).toLowerCase()
        expect(normalizeText(value)).toBe(reference)
      }),
      { numRuns: 5_000 },
    )
  })
})
