import { ADVERSARIAL_TEXTS, longestLoopDelay } from '@search-layer/testkit'
import { describe, expect, it } from 'vitest'
import { MAX_REFS_PER_THREAD, mapYielding, readRefs } from './_read-refs.js'
import { MAX_REFS_PER_TEXT, findRefs } from './refs.js'

const sources = (texts: readonly string[]) =>
  texts.map((text, i) => ({ text, options: { repo: 'o/r', source: `comment:${i}` } }))

describe('readRefs', () => {
  it('finds what findRefs finds, text by text', async () => {
    const texts = ['Fixes #1', 'see https://e.com/a and o/r@deadbeef1', '`#3` GH-4']
    const expected = texts.flatMap((text, i) => findRefs(text, { repo: 'o/r', source: `comment:${i}` }))
    expect(await readRefs(sources(texts))).toEqual(expected)
  })

  it('stops at MAX_REFS_PER_THREAD occurrences', async () => {
    const many = Array.from({ length: MAX_REFS_PER_TEXT }, (_, i) => `#${i + 1}`).join(' ')
    const texts = Array.from({ length: MAX_REFS_PER_THREAD / MAX_REFS_PER_TEXT + 5 }, () => many)
    const refs = await readRefs(sources(texts))
    expect(refs).toHaveLength(MAX_REFS_PER_THREAD)
    expect(refs.at(-1)?.source).toBe(`comment:${MAX_REFS_PER_THREAD / MAX_REFS_PER_TEXT - 1}`)
  })

  // 40 comments of 390 KB each, the pathological kinds mixed: ~5 s of work that must not hold the loop.
  it('answers the event loop within a second while it reads a thread of pathological comments', async () => {
    const kinds = ['brackets, comments and references', '#1 on one line', 'unclosed <!--', 'image links without close']
    const texts = Array.from({ length: 40 }, (_, i) => {
      const build = ADVERSARIAL_TEXTS[kinds[i % kinds.length]!]!
      return build(Math.ceil(390_000 / build(1).length))
    })
    // Warm: the first calls of a pattern run interpreted, which is start-up, not what a running server sees.
    await readRefs(sources(texts.slice(0, kinds.length)))
    // Wall time on a shared machine: a burst of other load stalls any loop once, unbounded work every time, so
    // the lowest of up to three reads is kept. 100 ms is the goal, met when the machine is quiet (40-90 ms); CI on
    // a loaded two-core machine read 393 ms. Without the slices the loop waits for all 40 texts (~5 s): the bound
    // sits between the two, as pdf-page's and render's loop-delay bounds do (1-2 s).
    let delay = Number.POSITIVE_INFINITY
    for (let attempt = 0; attempt < 3 && delay >= 100; attempt++)
      delay = Math.min(delay, await longestLoopDelay(() => readRefs(sources(texts))))
    expect(delay).toBeLessThan(1000)
  }, 60_000)
})

describe('mapYielding', () => {
  it('maps in order and gives the event loop turns', async () => {
    const items = Array.from({ length: 20_000 }, (_, i) => i)
    let turns = 0
    const timer = setInterval(() => turns++, 1)
    const out = await mapYielding(items, (i) => {
      const until = performance.now() + 0.005
      while (performance.now() < until);
      return i * 2
    })
    clearInterval(timer)
    expect(out).toEqual(items.map((i) => i * 2))
    expect(turns).toBeGreaterThan(0)
  })
})
