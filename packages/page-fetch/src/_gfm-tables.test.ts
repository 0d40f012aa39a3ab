import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { extractReadable } from './index.js'

const PAGE_URL = 'https://en.wikipedia.org/wiki/New_Zealand'
const article = (inner: string) =>
  `<html><head><title>Tables</title></head><body><article><h1>Tables</h1><p>${'Plain prose around the table keeps this an article. '.repeat(6)}</p>${inner}<p>${'More prose after it. '.repeat(8)}</p></article></body></html>`

describe('tables become GFM pipe tables', () => {
  it('keeps the climate table of a real Wikipedia page (test/fixtures/pages) as rows and columns', () => {
    const html = readFileSync(
      new URL('../test/fixtures/pages/wikipedia-new-zealand-climate.html', import.meta.url),
      'utf8',
    )
    const { markdown } = extractReadable(html, { url: PAGE_URL })
    expect(markdown).toContain(
      [
        'Average daily maximum and minimum temperatures for the six largest cities of New Zealand[164]',
        '',
        '| Location | Jan/Feb (°C) | Jan/Feb (°F) | July (°C) | July (°F) |',
        '| --- | --- | --- | --- | --- |',
        '| [Auckland](https://en.wikipedia.org/wiki/Auckland "Auckland") | 23/16 | 74/60 | 14/7 | 58/45 |',
      ].join('\n'),
    )
    expect(markdown).toContain(
      '| [Dunedin](https://en.wikipedia.org/wiki/Dunedin "Dunedin") | 19/11 | 66/53 | 10/3 | 50/37 |',
    )
    // Before: the cells ran together as "23/1674/6014/758/45".
    expect(markdown).not.toContain('23/1674/60')
  })

  it.each([
    [
      'no header cells: the first row is the header',
      '<table><tr><td>a</td><td>b</td></tr><tr><td>1</td><td>2</td></tr></table>',
      '| a | b |\n| --- | --- |\n| 1 | 2 |',
    ],
    [
      'colspan and short rows are padded to the widest row',
      '<table><tr><th colspan="2">span</th><th>c</th></tr><tr><td>1</td></tr></table>',
      '| span |   | c |\n| --- | --- | --- |\n| 1 |   |   |',
    ],
    [
      'a pipe and a line break inside a cell stay inside it',
      '<table><tr><th>k</th><th>v</th></tr><tr><td>a|b</td><td><p>one</p><p>two</p></td></tr></table>',
      '| k | v |\n| --- | --- |\n| a\\|b | one two |',
    ],
  ])('%s', (_label, table, expected) => {
    expect(extractReadable(article(table), { url: PAGE_URL }).markdown).toContain(expected)
  })

  it('leaves layout tables (a single cell, or a table holding a table) as plain blocks', () => {
    const layout = '<table><tr><td><p>Only cell text here.</p></td></tr></table>'
    const nested =
      '<table><tr><td><table><tr><th>x</th><th>y</th></tr><tr><td>1</td><td>2</td></tr></table></td><td>side</td></tr></table>'
    const single = extractReadable(article(layout), { url: PAGE_URL }).markdown
    expect(single).toContain('Only cell text here.')
    expect(single).not.toContain('| --- |')
    const outer = extractReadable(article(nested), { url: PAGE_URL }).markdown
    expect(outer).toContain('| x | y |\n| --- | --- |\n| 1 | 2 |')
    expect(outer).toContain('side')
    expect(outer).not.toMatch(/\| --- \| --- \| --- \|/)
  })
})
