import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type Lang, SIGNALS } from './_data.js'
import {
  type CompileTermsOptions,
  compileTerms,
  type NormalizedText,
  normalize,
  type TermHit,
  type TermMatcher,
  termsByLang,
} from './_matcher.js'

/**
 * The matcher as it was before the term index: one alternation per language with Unicode-property lookarounds.
 * Kept here (its term table is the matcher's own) as the reference the index must agree with hit for hit.
 */
function compileTermsWithRegex<P>(
  entries: readonly { term: string; lang: Lang; payload: P }[],
  options: CompileTermsOptions<P> = {},
): TermMatcher<P> {
  const byLang = termsByLang(entries)
  const build = (lang: Lang): RegExp | undefined => {
    const terms = [...byLang[lang].keys()].sort((a, b) => b.length - a.length)
    if (terms.length === 0) return undefined
    const alternation = terms.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+')).join('|')
    return lang === 'en'
      ? new RegExp(
          `(?<![\\p{Script=Latin}\\p{N}_'])(?:${alternation})(?![\\p{Script=Latin}\\p{N}_]|'[\\p{Script=Latin}])`,
          'gu',
        )
      : new RegExp(`(?:${alternation})`, 'gu')
  }
  const en = build('en')
  const zh = build('zh')
  return {
    match(input) {
      const hits: TermHit<P>[] = []
      if (en) {
        for (const m of input.text.matchAll(en)) {
          const term = m[0].replace(/\s+/g, ' ')
          const payload = byLang.en.get(term)
          if (payload !== undefined) hits.push({ term, lang: 'en', payload })
        }
      }
      if (zh && input.hasHan) {
        zh.lastIndex = 0
        for (let m = zh.exec(input.text); m !== null; m = zh.exec(input.text)) {
          if (options.isShadow?.(byLang.zh.get(m[0])!)) {
            if (input.isBoundary(m.index + m[0].length))
              hits.push({ term: m[0], lang: 'zh', payload: byLang.zh.get(m[0])! })
            continue
          }
          const term = longestTermAt(input, m.index, m[0], byLang.zh)
          if (term === undefined) {
            zh.lastIndex = m.index + 1
            continue
          }
          hits.push({ term, lang: 'zh', payload: byLang.zh.get(term)! })
          zh.lastIndex = m.index + term.length
        }
      }
      return hits
    },
  }
}

function longestTermAt<P>(
  input: NormalizedText,
  at: number,
  longest: string,
  terms: ReadonlyMap<string, P>,
): string | undefined {
  for (let length = longest.length; length > 0; length--) {
    const candidate = longest.slice(0, length)
    if (terms.has(candidate) && input.isBoundary(at + length)) return candidate
  }
  return undefined
}

interface Payload {
  blocked: boolean
  source: string
}
type Entry = { term: string; lang: Lang; payload: Payload }

const LANGS = ['en', 'zh'] as const
const isShadow = (payload: Payload) => payload.blocked

function entriesOf(lang: Lang, terms: readonly string[], source: string, blocked = false): Entry[] {
  return terms.map((term) => ({ term, lang, payload: { blocked, source } }))
}

/** Every term of the signal data, as classify.ts feeds its signal matcher (blocked phrases shadow). */
const SIGNAL_ENTRIES: Entry[] = LANGS.flatMap((lang) => [
  ...entriesOf(lang, SIGNALS.blocked[lang], 'blocked', true),
  ...entriesOf(lang, Object.keys(SIGNALS.sites[lang]), 'site'),
  ...Object.entries(SIGNALS.intents).flatMap(([intent, table]) => entriesOf(lang, Object.keys(table[lang]), intent)),
])

/** The time words, as classify.ts feeds its freshness matcher (no shadows). */
const TIME_ENTRIES: Entry[] = Object.entries(SIGNALS.timeHints).flatMap(([window, byLang]) =>
  LANGS.flatMap((lang) => entriesOf(lang, byLang[lang], window)),
)

/** Small made-up tables whose terms overlap, nest and sit on every kind of boundary. */
const SYNTHETIC_ENTRIES: Entry[] = [
  ...entriesOf(
    'en',
    [
      ...['a', 'a b', 'ab', 'b', 's', 't', 'what', "what's", "don't", "users'", 'users', 'guide'],
      ...['new', 'new york', 'york', 'york times', 'times', 'c++', 'c#', '.net', 'node.js', 'k8s', 'v2', '1', 'é'],
      ...["l'", 'go', 'go to', 'to', 'rust', 'Ｖｓ', 'vs'],
    ],
    'en',
  ),
  ...entriesOf(
    'zh',
    ['哪个', '哪个更', '更好', '还是', '新闻', '教程', '程序', '中文', '24小时', '部署', '不懂'],
    'zh',
  ),
  ...entriesOf('zh', ['还是不', '新闻学'], 'zh', true),
]

const SIGNAL_SETS = [
  { name: 'signal data', entries: SIGNAL_ENTRIES, options: { isShadow } },
  { name: 'time words', entries: TIME_ENTRIES, options: {} },
  { name: 'synthetic terms', entries: SYNTHETIC_ENTRIES, options: { isShadow } },
]

const MATCHERS = SIGNAL_SETS.map(({ name, entries, options }) => ({
  name,
  entries,
  indexed: compileTerms(entries, options),
  reference: compileTermsWithRegex(entries, options),
}))

// Called ~100,000 times: the text is normalised once for the three matchers, and `expect` (which costs more than
// both matchers) only runs to report hits that differ; hits are plain data, so equal JSON means equal hits.
function expectSameHits(query: string): void {
  const input = normalize(query)
  for (const { name, indexed, reference } of MATCHERS) {
    const [got, want] = [indexed.match(input), reference.match(input)]
    if (JSON.stringify(got) !== JSON.stringify(want)) expect(got, `${name}: ${JSON.stringify(query)}`).toEqual(want)
  }
}

const REAL_QUERIES = readFileSync(new URL('../test/fixtures/real-queries.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => (JSON.parse(line) as { query: string }).query)

// Characters that decide boundaries: Han, digits (also non-ASCII and astral), '_', apostrophes (typographic too),
// Latin beyond ASCII (astral U+1DF00, and "İ", which lower-cases to "i" plus a combining dot), spaces, emoji.
const EDGE_CHARS = [
  ...[' ', '  ', '\t', '\u00a0', "'", '\u2019', '\u02bc', '_', '-', '.', '+', '#', '?', '1', '9', '²', '\u{104a0}'],
  ...['é', 'É', 'ß', 'İ', '\u{1df00}', '\u0345', 'ｖｓ', '教', '程', '的', '中', '更', '好', '学', '😀', 'A', 'z'],
]

describe('compileTerms (term index) agrees with the regex alternation it replaced', () => {
  it.each([
    ['rust教程', ['rust', '教程']],
    ['k8s部署', ['k8s', '部署']],
    ['rust2', []],
    ['rust_x', []],
    ["what's new", ["what's", 'new']],
    ["what'sup", []],
    ["what' new", ['what', 'new']],
    ["don't", ["don't"]],
    ["don't t", ["don't", 't']],
    ["users' guide", ["users'", 'guide']],
    ["users'guide", []],
    ['new york times', ['new york', 'times']],
    ['the york times', ['york times']],
    ['new   york', ['new york']],
    ['ab b', ['ab', 'b']],
    ['a b', ['a b']],
    ['c++ vs c#', ['c++', 'vs', 'c#']],
    ['Ｖｓ VS', ['vs', 'vs']],
    ['é1', []],
    ['\u{1df00}rust rust\u{1df00}', []],
    ['\u{104a0}rust 😀rust😀', ['rust']],
    ["l'rust", []],
    ["l' rust", ["l'", 'rust']],
    ['go to town', ['go to']],
    ['哪个更好', ['哪个', '更好']],
    ['我还是不懂', []],
    ['我不懂', ['不懂']],
    ['新闻学 专业', []],
    ['最新 新闻', ['新闻']],
    ['24小时 新闻', ['24小时', '新闻']],
  ])('synthetic terms in %j: %j', (query, expected) => {
    const synthetic = MATCHERS.find((m) => m.name === 'synthetic terms')!
    const hits = synthetic.indexed.match(normalize(query)).filter((h) => !h.payload.blocked)
    expect(hits.map((h) => h.term)).toEqual(expected)
    expectSameHits(query)
  })

  it('on the labelled real queries', () => {
    for (const query of REAL_QUERIES) expectSameHits(query)
  })

  it('on every term alone, doubled, and next to each boundary character', () => {
    for (const { term } of [...SIGNAL_ENTRIES, ...TIME_ENTRIES, ...SYNTHETIC_ENTRIES]) {
      expectSameHits(term)
      expectSameHits(`${term}${term}`)
      for (const char of EDGE_CHARS) {
        expectSameHits(`${char}${term}`)
        expectSameHits(`${term}${char}`)
      }
    }
  })

  it('on random mixes of terms, parts of terms and boundary characters', () => {
    const terms = MATCHERS.flatMap((m) => m.entries.map((e) => e.term))
    const piece = fc.oneof(
      fc.constantFrom(...terms),
      fc.constantFrom(...terms).chain((t) => fc.nat(t.length).map((n) => t.slice(0, n))),
      fc.constantFrom(...EDGE_CHARS),
      fc.string({ maxLength: 3 }),
    )
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), fc.boolean(), (pieces, spaced) => {
        expectSameHits(pieces.join(spaced ? ' ' : ''))
      }),
      { numRuns: 3000 },
    )
  })
})
