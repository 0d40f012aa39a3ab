import { ADVERSARIAL_TEXTS, measureGrowth, LINEAR_GROWTH_LIMIT } from '@search-layer/testkit'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { splitMarkdown } from './split.js'

const sentence = (i: number) => `Sentence number ${i} says something about the topic at hand today.`
const paragraph = (from: number, count: number) => Array.from({ length: count }, (_, i) => sentence(from + i)).join(' ')

describe('splitMarkdown', () => {
  it('keeps the heading path and starts a new passage at each heading', () => {
    const md = [
      '# Install',
      '',
      paragraph(0, 5),
      '',
      '## Linux',
      '',
      paragraph(10, 5),
      '',
      '## macOS',
      '',
      paragraph(20, 5),
      '',
      '# Usage',
      '',
      paragraph(30, 5),
    ].join('\n')
    const passages = splitMarkdown(md)
    expect(passages.map((p) => p.heading)).toEqual(['Install', 'Install › Linux', 'Install › macOS', 'Usage'])
    expect(passages[1]!.text).toBe(paragraph(10, 5))
  })

  it('reads headings as a reader sees them: no link targets, anchors or [edit]', () => {
    const md = [
      '## [Sharing with a single developer](#id5)[¶](#sharing "Permalink to this headline")',
      paragraph(0, 5),
      '### Spectral properties\\[[edit](https://w.example/edit&section=4 "Edit section")\\]',
      paragraph(5, 5),
    ].join('\n')
    expect(splitMarkdown(md).map((p) => p.heading)).toEqual([
      'Sharing with a single developer',
      'Sharing with a single developer › Spectral properties',
    ])
  })

  it('merges short neighbours under one heading, never across headings', () => {
    const md = ['## A', 'One short line.', '', 'Another short line.', '', '## B', 'A third short line.'].join('\n')
    const passages = splitMarkdown(md)
    expect(passages.map((p) => [p.heading, p.text])).toEqual([
      ['A', 'One short line.\n\nAnother short line.'],
      ['B', 'A third short line.'],
    ])
  })

  it('cuts a long paragraph at sentence ends into passages of at most maxWords', () => {
    const text = paragraph(0, 60) // 60 sentences × 11 words
    const passages = splitMarkdown(text)
    expect(passages.length).toBeGreaterThan(3)
    for (const p of passages) {
      expect(p.words).toBeLessThanOrEqual(200)
      expect(p.text.endsWith('.')).toBe(true)
      expect(p.text.startsWith('Sentence number')).toBe(true)
    }
    expect(passages.map((p) => p.text).join(' ')).toBe(text)
  })

  it('groups consecutive short list items and cuts long lists between items', () => {
    const items = Array.from({ length: 60 }, (_, i) => `- item ${i} has a handful of words in it`)
    const passages = splitMarkdown(['## Features', ...items].join('\n'))
    expect(passages.length).toBeGreaterThan(1)
    for (const p of passages) {
      expect(p.text.startsWith('- item')).toBe(true)
      expect(p.text.endsWith('words in it')).toBe(true)
      expect(p.words).toBeLessThanOrEqual(200)
    }
  })

  it('gives table rows below the first passage the header row as context', () => {
    const header = '| Application | Original Size | Patch Size |\n| --- | --- | --- |'
    const rows = Array.from({ length: 80 }, (_, i) => `| App number ${i} | ${i}.1 MB | ${i}.2 MB |`)
    const passages = splitMarkdown(`## Results\n\n${header}\n${rows.join('\n')}`)
    expect(passages[0]!.heading).toBe('Results')
    expect(passages[0]!.text.startsWith('| Application')).toBe(true)
    expect(passages.length).toBeGreaterThan(1)
    for (const p of passages.slice(1)) {
      expect(p.heading).toBe('Results › Application | Original Size | Patch Size')
      expect(p.text.startsWith('| App number')).toBe(true)
    }
  })

  it('keeps a small code block whole and cuts a long one at line ends', () => {
    const small = ['```js', 'const binary = readFileSync("add.wasm")', 'console.log(binary.length)', '```'].join('\n')
    const smallPassages = splitMarkdown(`Load it in Node.js:\n\n${small}`)
    expect(smallPassages).toHaveLength(1)
    expect(smallPassages[0]!.text.endsWith(small)).toBe(true)

    const lines = Array.from({ length: 120 }, (_, i) => `  call(argument${i}, other${i}, third${i})`)
    const long = ['```', ...lines, '```'].join('\n')
    const passages = splitMarkdown(long)
    expect(passages.length).toBeGreaterThan(1)
    for (const p of passages) {
      expect(
        p.text
          .split('\n')
          .every((line) => line.startsWith('call(') || line.startsWith('```') || line.startsWith('  call(')),
      )
      expect(p.words).toBeLessThanOrEqual(200)
    }
  })

  it('counts Chinese characters as half words and cuts Chinese text at 。', () => {
    const zh = '宇航员在国际空间站上不允许喝酒，因为酒精的挥发物可能影响水回收系统。'.repeat(30)
    const passages = splitMarkdown(zh)
    expect(passages.length).toBeGreaterThan(1)
    for (const p of passages) {
      expect(p.words).toBeLessThanOrEqual(200)
      expect(p.text.endsWith('。')).toBe(true)
    }
    expect(splitMarkdown('宇航员不允许喝酒。')[0]!.words).toBe(4)
  })

  it('cuts text with no sentence end and no spaces at the character cap', () => {
    const blob = 'A'.repeat(20_000)
    const passages = splitMarkdown(blob)
    expect(passages.length).toBe(5)
    expect(passages.map((p) => p.text).join('')).toBe(blob)
  })

  it('reads only the first maxChars characters and at most maxPassages passages', () => {
    const md = Array.from({ length: 50 }, (_, i) => `## S${i}\n\n${paragraph(i, 4)}`).join('\n\n')
    expect(splitMarkdown(md, { maxPassages: 3 })).toHaveLength(3)
    const cut = splitMarkdown(md, { maxChars: 1000 })
    expect(cut.at(-1)!.end).toBeLessThanOrEqual(1000)
  })
})

const MARKDOWN_PIECES = [
  '# ',
  '## Heading',
  '\n',
  '\n\n',
  ' ',
  '　　',
  'word ',
  'Sentence ends here. ',
  '- ',
  '1. ',
  '> ',
  '| a | b |',
  '| --- | --- |',
  '```',
  '~~~',
  '---',
  '[link](https://e.example/a_(b))',
  '![img](x.png "t")',
  '](',
  '[',
  ']',
  '**bold**',
  '中文句子。',
  '日本語のテキスト',
  '😀',
  '\r\n',
  '\t',
]

describe('splitMarkdown properties', () => {
  const markdown = fc.oneof(
    fc.array(fc.constantFrom(...MARKDOWN_PIECES), { maxLength: 120 }).map((parts) => parts.join('')),
    fc.string({ unit: 'grapheme', maxLength: 300 }),
  )
  const options = fc.record({ minWords: fc.integer({ min: 1, max: 50 }), maxWords: fc.integer({ min: 10, max: 80 }) })

  it('every passage is found at its offsets; passages are in order and do not overlap', () => {
    fc.assert(
      fc.property(markdown, options, (md, opts) => {
        const passages = splitMarkdown(md, opts)
        let previousEnd = 0
        for (const p of passages) {
          expect(md.slice(p.start, p.end)).toBe(p.text)
          expect(p.start).toBeGreaterThanOrEqual(previousEnd)
          expect(p.end).toBeGreaterThan(p.start)
          expect(p.text).toBe(p.text.trim())
          previousEnd = p.end
        }
      }),
      { numRuns: 2000 },
    )
  })

  it('splitting is deterministic', () => {
    fc.assert(
      fc.property(markdown, (md) => {
        expect(splitMarkdown(md)).toEqual(splitMarkdown(md))
      }),
      { numRuns: 300 },
    )
  })
})

describe('splitMarkdown on hostile text', () => {
  // The shared adversarial texts that reach this scanner's paths (brackets, link targets, fences,
  // long lines), and the markdown structures it counts (items, rows, headings, unspaced CJK).
  const shared = [
    'open brackets',
    'image links without close',
    'nested brackets',
    'fence without newline',
    'spaces without newline',
  ] as const
  const hostile: Record<string, (n: number) => string> = {
    ...Object.fromEntries(shared.map((name) => [name, ADVERSARIAL_TEXTS[name]!])),
    'list items': (n) => '- a\n'.repeat(n),
    'table rows': (n) => '| a | b |\n'.repeat(n),
    'long delimiter row that is not one': (n) => `| a |\n|${'-'.repeat(n * 4)}x\n| b |`,
    'unclosed fence': (n) => `\`\`\`\n${'x y\n'.repeat(n)}`,
    headings: (n) => '# h\n'.repeat(n),
    'CJK without punctuation': (n) => '中'.repeat(n),
  }
  it.each(Object.keys(hostile))('%s: time grows linearly', (name) => {
    const build = hostile[name]!
    const growth = measureGrowth(build, (md) => splitMarkdown(md, { maxChars: 10_000_000 }), {
      n: 2000,
      runs: 3,
      retryAbove: LINEAR_GROWTH_LIMIT,
    })
    expect(growth.ratio).toBeLessThan(LINEAR_GROWTH_LIMIT)
  })
})
