// A floor under the ranking on real pages: a handful of questions from the question set
// (test/fixtures/questions.jsonl, made as the README says), each asked over five real pages with the
// answering page at a different result rank. `pnpm bench` reports the whole set; this only guards it.
import { readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import { extractReadable } from '@search-layer/page-fetch'
import { describe, expect, it } from 'vitest'
import { type ReadPage, findPassages } from '../src/index.js'

const FIXTURES = new URL('../../page-fetch/test/fixtures/readability/test-pages/', import.meta.url)
const QUESTIONS = new URL('./fixtures/questions.jsonl', import.meta.url)

interface Question {
  page: string
  query: string
  answer: string
}

// Questions of six pages; the pages are each other's distractors.
const FLOOR_QUERIES = [
  'how to detect whether fetch is supported',
  'ATF delivery latency guarantee for scheduled tasks',
  'what are the four golden signals of monitoring',
  'Google Maps update size with File-by-File patch',
  'skin patch treatment for peanut allergy',
  'AlphaGo 训练用了多少对弈记录',
  'DeepMind DNC 是什么',
  'how many async tasks per second does Dropbox ATF serve today',
]

function readabilityPage(name: string): Omit<ReadPage, 'resultRank' | 'resultScore'> {
  const html = gunzipSync(readFileSync(new URL(`${name}/source.html.gz`, FIXTURES))).toString('utf8')
  const url = `https://${name}.example/`
  const page = extractReadable(html, { url })
  return { url, title: page.title ?? '', markdown: page.markdown }
}

const questions = readFileSync(QUESTIONS, 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as Question)
  .filter((q) => FLOOR_QUERIES.includes(q.query))
const FLOOR = [...new Set(questions.map((q) => q.page))]
const pages = new Map(FLOOR.map((id) => [id, readabilityPage(id.split('/')[1]!)]))
const normal = (text: string) => text.replace(/\s+/g, ' ').toLowerCase()

describe('answers on real pages', () => {
  it('covers every floor question', () => {
    expect(questions.map((q) => q.query).sort()).toEqual([...FLOOR_QUERIES].sort())
  })

  it.each(questions.map((q, i) => [q.query, q, i] as const))('%s', async (_, q, i) => {
    const others = FLOOR.filter((id) => id !== q.page).slice(0, 4)
    const order = [...others]
    order.splice(i % 5, 0, q.page)
    const read = order.map((id, r) => ({ ...pages.get(id)!, resultRank: r + 1, resultScore: 1 - r / 10 }))
    const passages = await findPassages({ query: q.query, pages: read })
    const target = pages.get(q.page)!.url
    const hit = passages.slice(0, 5).findIndex((p) => p.url === target && normal(p.text).includes(normal(q.answer)))
    expect(hit, `answer "${q.answer}" in the top 5 passages`).toBeGreaterThanOrEqual(0)
  })
})
