import { InputError } from '@search-layer/core'
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import { describe, expect, it } from 'vitest'
import { type ReadPage, findPassages, PassageSchema } from './index.js'

const filler = (topic: string, n: number) =>
  Array.from({ length: n }, (_, i) => `Paragraph ${i} about ${topic} goes on at some length with ordinary words.`).join(
    '\n\n',
  )

function page(rank: number, markdown: string, over: Partial<ReadPage> = {}): ReadPage {
  return {
    url: `https://site${rank}.example/page`,
    title: `Page ${rank}`,
    markdown,
    resultRank: rank,
    resultScore: 1 - rank / 10,
    ...over,
  }
}

const NODE_FETCH = [
  '# Node.js releases',
  '',
  filler('release engineering', 3),
  '',
  '## Fetch',
  '',
  'The fetch API was added to Node.js in version 18 behind no flag, built on undici.',
].join('\n')

describe('findPassages', () => {
  it('finds the answering passage, with offsets into its page and a parseable shape', async () => {
    const pages = [page(1, filler('gardening', 6)), page(2, NODE_FETCH), page(3, filler('cooking', 6))]
    const passages = await findPassages({ query: 'when was fetch added to Node', pages })
    const top = passages[0]!
    expect(top).toMatchObject({ id: 'p1', url: pages[1]!.url, title: 'Page 2', heading: 'Node.js releases › Fetch' })
    expect(top.text).toContain('version 18')
    expect(pages[1]!.markdown.slice(top.start, top.end)).toBe(top.text)
    expect(passages.map((p) => p.id)).toEqual(passages.map((_, i) => `p${i + 1}`))
    for (const p of passages) expect(PassageSchema.parse(p)).toEqual(p)
    expect(passages.every((p, i) => i === 0 || passages[i - 1]!.score >= p.score)).toBe(true)
  })

  it('matches a Chinese query against Chinese passages (character pairs, no spaces)', async () => {
    const zh = [
      '# 太空饮酒',
      '',
      '国际空间站上的宇航员不允许喝酒，因为酒精的挥发物可能影响水回收系统。',
      '',
      '## 历史',
      '',
      '巴兹·奥尔德林是第一个在月球上喝酒的人，他在登月后领了圣餐。',
    ].join('\n')
    const passages = await findPassages({
      query: '第一个在月球上喝酒的人是谁',
      pages: [page(1, filler('rockets', 4)), page(2, zh)],
    })
    expect(passages[0]!.text).toContain('巴兹·奥尔德林')
  })

  it('uses sub-queries: a passage only a sub-query matches is still found', async () => {
    const pages = [page(1, `${filler('weather', 3)}\n\nThe undici client powers the built-in HTTP requests.`)]
    const without = await findPassages({ query: 'node fetch implementation', pages })
    const withSub = await findPassages({ query: 'node fetch implementation', subQueries: ['undici client'], pages })
    expect(without.some((p) => p.text.includes('undici'))).toBe(false)
    expect(withSub[0]!.text).toContain('undici')
  })

  it('folds near-identical passages of different pages into one, keeping every source', async () => {
    const release =
      'Acme Corp announced on Tuesday that its new solar panel reaches 31 percent efficiency in mass production, ' +
      'a record for silicon cells, and will ship to installers across Europe in the spring of next year.'
    const pages = [
      page(1, `# News\n\n${release}`),
      page(2, `${filler('markets', 2)}\n\n## Energy\n\n${release.replace('Tuesday', 'Tuesday,')}`),
      page(3, `# Wire\n\n${release}`),
    ]
    const passages = await findPassages({ query: 'solar panel efficiency record', pages })
    const withRelease = passages.filter((p) => p.text.includes('31 percent'))
    expect(withRelease).toHaveLength(1)
    const folded = withRelease[0]!
    expect(folded.url).toBe(pages[0]!.url)
    expect(folded.sources?.map((s) => s.url)).toEqual(pages.map((p) => p.url))
    for (const source of folded.sources!) {
      const markdown = pages.find((p) => p.url === source.url)!.markdown
      expect(markdown.slice(source.start, source.end)).toContain('31 percent efficiency')
    }
  })

  it('stays under the token budget, counted with o200k_base', async () => {
    const pages = [1, 2, 3, 4, 5].map((rank) => page(rank, filler(`budget topic ${rank}`, 40)))
    for (const budgetTokens of [300, 800, 2000]) {
      const passages = await findPassages({ query: 'budget topic paragraph', pages }, { budgetTokens })
      const used = passages.reduce((sum, p) => sum + countTokens(p.text), 0)
      expect(used).toBeLessThanOrEqual(budgetTokens)
      expect(passages.length).toBeGreaterThan(0)
    }
    // A passage is never cut to fit: under a budget smaller than any passage, none is returned.
    expect(await findPassages({ query: 'budget topic paragraph', pages }, { budgetTokens: 60 })).toEqual([])
    const capped = await findPassages({ query: 'budget topic paragraph', pages }, { maxPassages: 3 })
    expect(capped).toHaveLength(3)
  })

  it('breaks a tie between equal passages in favour of the better search result', async () => {
    const text = 'Deno 2 supports npm packages and node_modules directories out of the box.'
    const passages = await findPassages({
      query: 'deno npm support',
      pages: [page(2, `# Deno\n\n${text} Second copy here.`), page(1, `# Deno\n\n${text} First copy here.`)],
    })
    expect(passages[0]!.resultRank).toBe(1)
  })

  it('returns no passage when nothing matches', async () => {
    expect(await findPassages({ query: 'zymurgy', pages: [page(1, filler('gardening', 5))] })).toEqual([])
    expect(await findPassages({ query: 'anything', pages: [] })).toEqual([])
  })

  it('reads pages in result order until maxTotalChars is spent', async () => {
    const pages = [page(2, `# Late\n\nThe quokka fact is here.`), page(1, filler('quokka', 200))]
    const passages = await findPassages({ query: 'quokka fact', pages }, { maxTotalChars: 5_000 })
    expect(passages.length).toBeGreaterThan(0)
    expect(passages.every((p) => p.resultRank === 1 && p.end <= 5_000)).toBe(true)
  })

  it.each([
    [{ query: '', pages: [] }, 'query'],
    [
      { query: 'x', pages: [{ url: 'u', title: 't', markdown: '', resultRank: 0, resultScore: 1 }] },
      'pages.0.resultRank',
    ],
    [{ query: 'x', subQueries: Array(11).fill('y'), pages: [] }, 'subQueries'],
  ])('refuses malformed input naming the field (%#)', async (input, field) => {
    const error = await findPassages(input as never).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(InputError)
    expect((error as InputError).issues.map((i) => i.path)).toContain(field)
  })

  it('refuses a budget out of range', async () => {
    await expect(findPassages({ query: 'x', pages: [] }, { budgetTokens: 0 })).rejects.toThrow(/budgetTokens/)
  })
})
