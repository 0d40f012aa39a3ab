import { ADVERSARIAL_TEXTS, measureGrowth, sizedText, LINEAR_GROWTH_LIMIT } from '@search-layer/testkit'
import { describe, expect, it } from 'vitest'
import { MAX_FIELD_CHARS, MAX_RESULTS, parseDuckDuckGoPage } from './parse.js'

const LINK = '<a class="result__a" href="//duckduckgo.com/l/?uddg=https%3A%2F%2Fa.example%2F">T</a>'
const result = (body: string) => `<div class="result">${body}</div>`

// Bodies a hostile or broken server can send in place of a results page. Results nested in results made every
// start tag visit every open result and every text reach every open field: 391 KB took 10 to 26 s.
const HOSTILE: Record<string, (n: number) => string> = {
  'nested div.result': (n) => '<div class="result">'.repeat(n),
  'nested div.result, each with a link': (n) => `<div class="result">${LINK}`.repeat(n),
  'nested div.result, each in an unclosed snippet': (n) =>
    '<div class="result"><span class="result__snippet">s'.repeat(n),
  'nested div.result, every field': (n) =>
    `<div class="result"><h2>${LINK}</h2><a class="result__snippet">s</a><span class="result__url">u</span>`.repeat(n),
  'nested div.result with ad badges': (n) => '<div class="result"><span class="badge--ad">Ad</span>'.repeat(n),
  'nested fields in one result': (n) =>
    `<div class="result">${'<span class="result__snippet result__url result__extras__url">x'.repeat(n)}`,
  'nested <div> with stray end tags': (n) => '<div></span>'.repeat(n),
  'nested <svg>': (n) => '<svg>'.repeat(n),
  'many <a class="result__a" openers in one tag': (n) => `<div class="result">${'<a class="result__a" '.repeat(n)}>`,
  'sibling results': (n) => result(LINK).repeat(n),
}
const BROKEN = [
  'unclosed tags',
  'unclosed <a',
  'unclosed <pre>',
  'unclosed <!--',
  'many <a openers in one tag',
  'many href values in one tag',
  'unterminated attribute quotes',
  'attribute values across lines',
  'nested <',
  'unclosed <p',
]
const ALL: Record<string, (n: number) => string> = {
  ...HOSTILE,
  ...Object.fromEntries(BROKEN.map((name) => [name, ADVERSARIAL_TEXTS[name]!])),
}

// The ratio tells linear from quadratic; the figures belong to the changeset and the bench.
describe('parseDuckDuckGoPage is linear on hostile bodies', { timeout: 120_000 }, () => {
  it.each(Object.keys(ALL))('%s', (name) => {
    const growth = measureGrowth(ALL[name]!, parseDuckDuckGoPage, { n: 4000, runs: 5, retryAbove: LINEAR_GROWTH_LIMIT })
    expect(growth.ratio, JSON.stringify(growth)).toBeLessThan(LINEAR_GROWTH_LIMIT)
  })
})

const MIB = 1024 * 1024

describe('a 1 MiB hostile body', { timeout: 120_000 }, () => {
  // Well under 100 ms of CPU on an idle machine.
  it.each(Object.keys(ALL))('%s: parsed in seconds of CPU, not minutes', (name) => {
    const html = sizedText(ALL[name]!, MIB)
    parseDuckDuckGoPage(html.slice(0, 50_000))
    const before = process.cpuUsage()
    parseDuckDuckGoPage(html)
    const used = process.cpuUsage(before)
    // A quadratic scan takes minutes at 1 MiB, a linear one tens of ms: 5 s tells them apart on a loaded machine.
    expect((used.user + used.system) / 1000).toBeLessThan(5000)
  })
})

describe('what one page may hold', () => {
  it(`reads at most ${MAX_RESULTS} results, and no further`, () => {
    const page = parseDuckDuckGoPage(result(LINK).repeat(MAX_RESULTS + 50))
    expect(page.hits).toHaveLength(MAX_RESULTS)
  })

  it('reads every field of the last result it takes, even when it is nested and ends late', () => {
    const html = `${result(LINK).repeat(MAX_RESULTS - 1)}<div class="result"><div class="result">${LINK}</div><span class="result__snippet">late</span></div>`
    const page = parseDuckDuckGoPage(html)
    expect([page.hits.length, page.hits.at(-1)?.snippet]).toEqual([MAX_RESULTS, 'late'])
  })

  it(`cuts a field's text at ${MAX_FIELD_CHARS} characters before cleaning it`, () => {
    const page = parseDuckDuckGoPage(result(`${LINK}<a class="result__snippet">${'word '.repeat(MAX_FIELD_CHARS)}</a>`))
    expect(page.hits[0]!.snippet).toBe('word '.repeat(MAX_FIELD_CHARS / 5).trim() + ' w')
  })
})
