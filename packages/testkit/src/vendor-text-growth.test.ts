import { isoDate, plainText } from '@search-layer/core'
import { describe, expect, it } from 'vitest'
import { ADVERSARIAL_TEXTS, measureGrowth, LINEAR_GROWTH_LIMIT } from './growth.js'

// core's text helpers clean every title and snippet of every vendor body. They live here because core cannot
// depend on the testkit (the testkit depends on core).
const HOSTILE: Record<string, (n: number) => string> = {
  'unclosed tags': ADVERSARIAL_TEXTS['unclosed tags']!,
  'unclosed <a': ADVERSARIAL_TEXTS['unclosed <a']!,
  'many <a openers in one tag': ADVERSARIAL_TEXTS['many <a openers in one tag']!,
  'unterminated attribute quotes': ADVERSARIAL_TEXTS['unterminated attribute quotes']!,
  'nested <': ADVERSARIAL_TEXTS['nested <']!,
  'spaces without newline': ADVERSARIAL_TEXTS['spaces without newline']!,
  'a tag opened and never closed': (n) => `<b ${'x'.repeat(n)}`,
  'entities without semicolons': (n) => '&amp'.repeat(n),
  'numeric entities without semicolons': (n) => '&#x1F600'.repeat(n),
  'nested div.result': (n) => '<div class="result">'.repeat(n),
}

describe('plainText is linear on hostile vendor text', { timeout: 120_000 }, () => {
  it.each(Object.keys(HOSTILE))('%s', (name) => {
    const growth = measureGrowth(HOSTILE[name]!, plainText, { n: 2000, runs: 5, retryAbove: LINEAR_GROWTH_LIMIT })
    expect(growth.ratio, JSON.stringify(growth)).toBeLessThan(LINEAR_GROWTH_LIMIT)
  })

  it.each(Object.keys(HOSTILE))('%s at 1 MiB: seconds of CPU, not minutes', (name) => {
    const build = HOSTILE[name]!
    const text = build(Math.floor((1024 * 1024) / build(1).length))
    plainText(text.slice(0, 10_000))
    const before = process.cpuUsage()
    plainText(text)
    const used = process.cpuUsage(before)
    // A quadratic scan takes minutes at 1 MiB, a linear one tens of ms: 5 s tells them apart on a loaded machine.
    expect((used.user + used.system) / 1000).toBeLessThan(5000)
  })
})

describe('isoDate is linear on hostile vendor text', { timeout: 120_000 }, () => {
  it.each([
    ['digits and dashes', (n: number) => '2024-01-01'.repeat(n)],
    ['an offset that never ends', (n: number) => `2024-01-01T00:00${'+00:00'.repeat(n)}`],
    ['spaces', (n: number) => `2024${' '.repeat(n)}`],
  ])('%s', (_name, build) => {
    const growth = measureGrowth(build, isoDate, { n: 2000, runs: 5, retryAbove: LINEAR_GROWTH_LIMIT })
    expect(growth.ratio, JSON.stringify(growth)).toBeLessThan(LINEAR_GROWTH_LIMIT)
  })
})
