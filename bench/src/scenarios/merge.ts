import { performance } from 'node:perf_hooks'
import { canonicalUrl, parseQueryOperators } from '@search-layer/core'
import { collapseNearDuplicates, diversifySites, enforceFilters, merge, rank } from '@search-layer/scoring'
import type { ScenarioContext } from '../_context.js'
import { rssMb } from '../_context.js'
import type { VariantResult } from '../_report.js'
import { summarize } from '../_stats.js'
import { syntheticBatches, urlsOf } from '../_synthetic.js'

const NOW = new Date('2026-11-20T12:00:00Z')
const WEIGHTS = { keyword: 0.4, freshness: 0.2, authority: 0.4 }

/** Scenario 4: merge + rank of 1k/10k/100k synthetic results, and canonicalUrl throughput. */
export async function mergeScenario(ctx: ScenarioContext): Promise<VariantResult[]> {
  const out: VariantResult[] = []
  // A quick run proves the harness: 100,000 results (~6 s a merge, ~15 CPU-s with its batches) run the same code.
  const sizes = ctx.quick ? [1_000, 10_000] : [1_000, 10_000, 100_000]
  for (const size of sizes) {
    const { batches, queries } = syntheticBatches(size)
    const iterations = ctx.quick ? (size >= 10_000 ? 5 : 20) : size >= 100_000 ? 10 : size >= 10_000 ? 50 : 300
    const warmup = size >= 100_000 ? 1 : ctx.quick ? 3 : 10
    const mergeMs: number[] = []
    const totalMs: number[] = []
    let unique = 0
    for (let i = 0; i < warmup + iterations; i++) {
      const t0 = performance.now()
      const merged = merge(batches, { now: NOW, queries })
      const t1 = performance.now()
      const ranked = rank(merged, { query: queries[0]!, subQueries: queries, weights: WEIGHTS, now: NOW })
      const t2 = performance.now()
      if (i < warmup) continue
      mergeMs.push(t1 - t0)
      totalMs.push(t2 - t0)
      unique = ranked.length
    }
    const total = summarize(totalMs)
    const mergeOnly = summarize(mergeMs)
    out.push({
      scenario: '4 merge + score',
      variant: `${size.toLocaleString('en-US')} results`,
      latency: total,
      throughput: { value: Math.round((size * 1000) / total.mean), unit: 'results/s' },
      rssMb: rssMb(),
      extra: { mergeMs: mergeOnly, uniquePages: unique, batches: batches.length },
      note: `merge p50 ${mergeOnly.p50} ms, rank the rest; ${unique.toLocaleString('en-US')} unique pages${size === 10_000 ? '; target < 30 ms' : ''}`,
    })
    ctx.log(`merge+score ${size}: p50 ${total.p50} ms (merge ${mergeOnly.p50} ms)`)
  }

  out.push(postPassRow(ctx))
  out.push(operatorsRow(ctx))

  // canonicalUrl alone, over the same realistic URL variants.
  const urls = urlsOf(syntheticBatches(20_000, 7).batches)
  const rounds = ctx.quick ? 3 : 20
  const perRound: number[] = []
  let sink = 0
  for (let i = 0; i < rounds + 2; i++) {
    const t0 = performance.now()
    for (const url of urls) sink += canonicalUrl(url).length
    if (i >= 2) perRound.push(performance.now() - t0)
  }
  const round = summarize(perRound)
  out.push({
    scenario: '4 merge + score',
    variant: `canonicalUrl × ${urls.length.toLocaleString('en-US')}`,
    latency: round,
    throughput: { value: Math.round((urls.length * 1000) / round.mean), unit: 'URLs/s' },
    extra: { checksum: sink },
    note: 'latency = one pass over all URLs',
  })
  ctx.log(`canonicalUrl: ${Math.round((urls.length * 1000) / round.mean)} URLs/s`)
  return out
}

/** Near-duplicate collapse and site diversity over one search's worth of ranked results (300). */
function postPassRow(ctx: ScenarioContext): VariantResult {
  // ~1,200 raw results merge into a few hundred pages; the top 300 are what a deep search hands on.
  const { batches, queries } = syntheticBatches(1_200)
  const ranked = rank(merge(batches, { now: NOW, queries }), {
    query: queries[0]!,
    subQueries: queries,
    weights: WEIGHTS,
    now: NOW,
  }).slice(0, 300)
  const iterations = ctx.quick ? 50 : 500
  const collapseMs: number[] = []
  const totalMs: number[] = []
  let kept = 0
  for (let i = 0; i < iterations + 10; i++) {
    const t0 = performance.now()
    const collapsed = collapseNearDuplicates(ranked)
    const t1 = performance.now()
    diversifySites(collapsed, { query: queries[0]! })
    const t2 = performance.now()
    if (i < 10) continue
    collapseMs.push(t1 - t0)
    totalMs.push(t2 - t0)
    kept = collapsed.length
  }
  const total = summarize(totalMs)
  const collapse = summarize(collapseMs)
  ctx.log(`near-dup + diversity, ${ranked.length} results: p50 ${total.p50} ms`)
  return {
    scenario: '4 merge + score',
    variant: `near-duplicates + site diversity, ${ranked.length} ranked results`,
    latency: total,
    throughput: { value: Math.round((ranked.length * 1000) / total.mean), unit: 'results/s' },
    extra: { collapseMs: collapse, kept },
    note: `collapse p50 ${collapse.p50} ms, diversity the rest; ${ranked.length - kept} folded`,
  }
}

// Filters every synthetic result passes until the last check (the script of lang:ru), so each result pays for all.
const OPERATOR_QUERY =
  'markdown 编辑器 "live preview" -site:gist.github.com -site:pinterest.com after:2000-01 before:2030 lang:ru -electron -"paid plan"'

/** Query-operator parsing, and enforcing every filter on one search's worth of merged results (300). */
function operatorsRow(ctx: ScenarioContext): VariantResult {
  const { batches, queries } = syntheticBatches(1_200)
  const merged = merge(batches, { now: NOW, queries }).slice(0, 300)
  const { filters } = parseQueryOperators(OPERATOR_QUERY)
  const iterations = ctx.quick ? 50 : 500
  const parseMs: number[] = []
  const totalMs: number[] = []
  let kept = 0
  for (let i = 0; i < iterations + 10; i++) {
    const t0 = performance.now()
    parseQueryOperators(OPERATOR_QUERY)
    const t1 = performance.now()
    kept = enforceFilters(merged, filters).results.length
    const t2 = performance.now()
    if (i < 10) continue
    parseMs.push(t1 - t0)
    totalMs.push(t2 - t0)
  }
  const total = summarize(totalMs)
  const parse = summarize(parseMs)
  ctx.log(`query operators: parse p50 ${parse.p50} ms, parse + enforce ${merged.length} results p50 ${total.p50} ms`)
  return {
    scenario: '4 merge + score',
    variant: `query operators: parse 8 + enforce on ${merged.length} merged results`,
    latency: total,
    throughput: { value: Math.round((merged.length * 1000) / total.mean), unit: 'results/s' },
    extra: { parseMs: parse, kept },
    note: `parse p50 ${parse.p50} ms, enforcement the rest; ${merged.length - kept} dropped`,
  }
}
