import { ADVERSARIAL_TEXTS, measureGrowth, sizedText, LINEAR_GROWTH_LIMIT } from '@search-layer/testkit'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  hasEventStreamField,
  markdownLinks,
  removeCitationMarkers,
  removeThinkBlocks,
  trimLineEnds,
  unlinkMarkdown,
} from './_markdown-scan.js'
import { extractJsonResults, readChatBody, sentenceAround, stripCitationMarkers } from './map.js'

// The regexes the scanners replace, as the reference they must agree with.
const REFERENCE = {
  removeCitationMarkers: (t: string) => t.replace(/\s?\[\[\d+\]\]\([^)\s]*\)/g, ''),
  unlinkMarkdown: (t: string) => t.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1'),
  trimLineEnds: (t: string) => t.replace(/[ \t]+\n/g, '\n'),
  hasEventStreamField: (t: string) => /^\s*(?:data|event|id):/m.test(t),
  removeThinkBlocks: (t: string) => t.replace(/<think(?:ing)?>[\s\S]*?<\/think(?:ing)?>/gi, ''),
  markdownLinks: (t: string) =>
    [...t.matchAll(/\[([^\]]{1,300})\]\((https?:\/\/[^)\s]+)\)/g)].map((m) => ({
      index: m.index,
      length: m[0].length,
      title: m[1],
      url: m[2],
    })),
}
const SCANNERS = {
  removeCitationMarkers,
  unlinkMarkdown,
  trimLineEnds,
  hasEventStreamField,
  removeThinkBlocks,
  markdownLinks,
}

const text = fc
  .array(
    fc.oneof(
      fc.constantFrom('[', ']', '(', ')', '[[', ']](', '!', ' ', '\t', '\n', '\r', '\u2028', '\u00a0', 'x', '1'),
      fc.constantFrom('https://a.b/c', 'http://', 'data:', 'event:', 'id:', '<think>', '</THINK>', '<thinking>'),
      fc.constantFrom('</thinking>', '[[12]](https://x.ai/n)', '[t](https://e.com)', '![i](u)', 'a.'),
      fc.string({ maxLength: 3 }),
    ),
    { maxLength: 40 },
  )
  .map((parts) => parts.join(''))

describe('the linear scanners agree with the regexes they replace', () => {
  it.each(Object.keys(SCANNERS) as (keyof typeof SCANNERS)[])('%s', (name) => {
    fc.assert(
      fc.property(text, (t) => {
        expect(SCANNERS[name](t)).toEqual(REFERENCE[name](t))
      }),
      { numRuns: 2000 },
    )
  })
})

// Texts a web page can put in the model's answer; each made a regex of the old code read the rest of the text
// from every opener.
const HOSTILE: Record<string, (n: number) => string> = {
  'citation openers without a close': (n) => '[[1]]('.repeat(n),
  'spaces without a newline': (n) => `a${' '.repeat(n)}b`,
  'open brackets': ADVERSARIAL_TEXTS['open brackets']!,
  'link openers without a close': (n) => '[a]('.repeat(n),
  'http link openers without a close': (n) => '[a](http://e'.repeat(n),
  'blank lines': (n) => '\n'.repeat(n),
  'spaces and newlines': (n) => ' \n'.repeat(n),
  '<think> without </think>': (n) => '<think>'.repeat(n),
  'unclosed braces': (n) => '{'.repeat(n),
  'link without close': ADVERSARIAL_TEXTS['link without close']!,
}

const SCANS: Record<string, (text: string) => unknown> = {
  ...SCANNERS,
  stripCitationMarkers,
  'sentenceAround, a citation at the end': (t: string) =>
    sentenceAround(`${t}[[1]](https://a.b/)`, t.length, t.length + 20),
  extractJsonResults,
  readChatBody: (t: string) => {
    try {
      return readChatBody(t)
    } catch {
      return undefined
    }
  },
}

// Each scan on the inputs that made its old regex quadratic; the 1 MiB check below runs every pair.
const QUADRATIC_BEFORE: [string, string][] = [
  ['stripCitationMarkers', 'citation openers without a close'],
  ['stripCitationMarkers', 'spaces without a newline'],
  ['unlinkMarkdown', 'open brackets'],
  ['unlinkMarkdown', 'link openers without a close'],
  ['unlinkMarkdown', 'link without close'],
  ['markdownLinks', 'http link openers without a close'],
  ['hasEventStreamField', 'blank lines'],
  ['readChatBody', 'spaces and newlines'],
  ['removeThinkBlocks', '<think> without </think>'],
  ['extractJsonResults', 'unclosed braces'],
  ['sentenceAround, a citation at the end', 'citation openers without a close'],
  ['sentenceAround, a citation at the end', 'open brackets'],
  ['sentenceAround, a citation at the end', 'spaces without a newline'],
]

describe('the scans of answer text are linear', { timeout: 120_000 }, () => {
  it.each(QUADRATIC_BEFORE)('%s on %s', (scan, input) => {
    const growth = measureGrowth(HOSTILE[input]!, SCANS[scan]!, { n: 2000, runs: 5, retryAbove: LINEAR_GROWTH_LIMIT })
    expect(growth.ratio, JSON.stringify(growth)).toBeLessThan(LINEAR_GROWTH_LIMIT)
  })
})

describe('a 1 MiB hostile answer', { timeout: 120_000 }, () => {
  it.each(Object.keys(HOSTILE))('%s: every scan in seconds of CPU, not minutes', (input) => {
    const t = sizedText(HOSTILE[input]!, 1024 * 1024)
    for (const scan of Object.values(SCANS)) scan(t.slice(0, 10_000))
    const before = process.cpuUsage()
    for (const scan of Object.values(SCANS)) scan(t)
    const used = process.cpuUsage(before)
    // A quadratic scan takes minutes at 1 MiB, a linear one tens of ms: 5 s tells them apart on a loaded machine.
    expect((used.user + used.system) / 1000).toBeLessThan(5000)
  })
})
