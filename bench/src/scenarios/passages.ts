import { performance } from 'node:perf_hooks'
import { extractReadable } from '@search-layer/page-fetch'
import { type Passage, type ReadPage, findPassages } from '@search-layer/passages'
import { type CorpusTruth, type Question, corpusHtml, loadQuestions, loadTruth } from '../_corpus-pages.js'
import type { ScenarioContext } from '../_context.js'
import type { VariantResult } from '../_report.js'
import { summarize } from '../_stats.js'

const PAGES_PER_SEARCH = 5
const LEAD_WORDS = 120

const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits

type Page = Omit<ReadPage, 'resultRank' | 'resultScore'>

/** A corpus page as `--read` would see it: page-fetch's markdown of the stored HTML. */
function loadPage(id: string, truth: CorpusTruth): Page {
  const { html, url } = corpusHtml(id, truth)
  const page = extractReadable(html, { url })
  return { url, title: page.title ?? '', markdown: page.markdown }
}

/**
 * The search each question is asked in: its page and the next four pages of the set as the other
 * results, its page at rank 1, 2, … 5 in turn, so the result prior cannot answer for the ranking.
 */
function searchFor(q: Question, index: number, pool: readonly string[], pages: Map<string, Page>): ReadPage[] {
  const at = pool.indexOf(q.page)
  const ids = Array.from({ length: PAGES_PER_SEARCH - 1 }, (_, d) => pool[(at + d + 1) % pool.length]!)
  ids.splice(index % PAGES_PER_SEARCH, 0, q.page)
  return ids.map((id, r) => ({ ...pages.get(id)!, resultRank: r + 1, resultScore: round(1 - r / 10) }))
}

const normal = (text: string) => text.replace(/\s+/g, ' ').toLowerCase()

/** Rank (1-based) of the first passage from the answering page that holds the answer, or 0. */
function answerRank(passages: readonly { url: string; text: string }[], url: string, answer: string): number {
  return passages.findIndex((p) => p.url === url && normal(p.text).includes(normal(answer))) + 1
}

/** The baseline: each page's first words, in result order (what a reader gets from the top of each page). */
function leads(search: readonly ReadPage[]): { url: string; text: string }[] {
  return search.map((p) => ({ url: p.url, text: p.markdown.split(/\s+/).slice(0, LEAD_WORDS).join(' ') }))
}

interface Outcome {
  zh: boolean
  passages: number
  lead: number
  cpuMs: number
  wallMs: number
}

const share = (rows: readonly Outcome[], pick: (o: Outcome) => boolean) =>
  rows.length === 0 ? 0 : round(rows.filter(pick).length / rows.length, 3)

function qualityRows(outcomes: readonly Outcome[], label: string): VariantResult[] {
  const zh = outcomes.filter((o) => o.zh)
  const figures = (rank: (o: Outcome) => number) => ({
    top1: share(outcomes, (o) => rank(o) === 1),
    top5: share(outcomes, (o) => rank(o) >= 1 && rank(o) <= 5),
    zhTop1: share(zh, (o) => rank(o) === 1),
    zhTop5: share(zh, (o) => rank(o) >= 1 && rank(o) <= 5),
  })
  const ours = figures((o) => o.passages)
  const lead = figures((o) => o.lead)
  return [
    {
      scenario: '12 passages quality',
      variant: `findPassages, ${label}`,
      extra: { ...ours, inBudget: share(outcomes, (o) => o.passages >= 1), questions: outcomes.length, zh: zh.length },
      note: `answer in top 1 ${ours.top1} (target ≥ 0.7), top 5 ${ours.top5} (≥ 0.9); Chinese ${ours.zhTop1} / ${ours.zhTop5}`,
    },
    {
      scenario: '12 passages quality',
      variant: `baseline: first ${LEAD_WORDS} words of each page, result order`,
      extra: lead,
      note: `answer in top 1 ${lead.top1}, top 5 ${lead.top5}; Chinese ${lead.zhTop1} / ${lead.zhTop5}`,
    },
  ]
}

/**
 * Scenario 12: evidence passages over real pages (the Readability and article-extraction corpora
 * through page-fetch): answer-in-top-1 and top-5 recall on the question set against a baseline,
 * and the CPU time of one `findPassages` over a search's five pages.
 */
export async function passagesScenario(ctx: ScenarioContext): Promise<VariantResult[]> {
  const questions = loadQuestions()
  const truth = loadTruth()
  const pool = [...new Set(questions.map((q) => q.page))]
  const pages = new Map(pool.map((id) => [id, loadPage(id, truth)]))

  const coldStart = performance.now()
  await findPassages({ query: 'warm up', pages: searchFor(questions[0]!, 0, pool, pages) })
  const coldMs = performance.now() - coldStart

  const repeats = ctx.quick ? 1 : 5
  const outcomes: Outcome[] = []
  for (const [i, q] of questions.entries()) {
    const search = searchFor(q, i, pool, pages)
    const url = pages.get(q.page)!.url
    let passages: Passage[] = []
    const cpu: number[] = []
    const wall: number[] = []
    for (let r = 0; r < repeats; r++) {
      const cpu0 = process.cpuUsage()
      const t0 = performance.now()
      passages = await findPassages({ query: q.query, pages: search })
      wall.push(performance.now() - t0)
      cpu.push(process.cpuUsage(cpu0).user / 1000 + process.cpuUsage(cpu0).system / 1000)
    }
    outcomes.push({
      zh: /\p{Script=Han}/u.test(q.query),
      passages: answerRank(passages, url, q.answer),
      lead: answerRank(leads(search), url, q.answer),
      cpuMs: Math.min(...cpu),
      wallMs: Math.min(...wall),
    })
  }
  const cpu = summarize(outcomes.map((o) => o.cpuMs))
  const chars = [...pages.values()].map((p) => p.markdown.length).sort((a, b) => a - b)
  const medianChars = chars[Math.floor(chars.length / 2)]!
  ctx.log(`passages: top1 ${share(outcomes, (o) => o.passages === 1)}, CPU p50 ${cpu.p50} ms per 5 pages`)
  return [
    ...qualityRows(outcomes, `${questions.length} questions × ${PAGES_PER_SEARCH} real pages`),
    {
      scenario: '12 passages CPU',
      variant: `findPassages over ${PAGES_PER_SEARCH} pages (markdown median ${medianChars.toLocaleString('en-US')} chars), warm`,
      latency: cpu,
      extra: { wallP50Ms: summarize(outcomes.map((o) => o.wallMs)).p50, coldFirstCallMs: round(coldMs), repeats },
      note: `CPU ms per search (least of ${repeats}), target ≤ 50; first call with the tokenizer's load ${Math.round(coldMs)} ms wall`,
    },
  ]
}
