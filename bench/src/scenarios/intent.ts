import { performance } from 'node:perf_hooks'
import { expandQuery } from '@search-layer/expand'
import { classifyIntent } from '@search-layer/intent'
import type { ScenarioContext } from '../_context.js'
import type { VariantResult } from '../_report.js'
import { percentile, summarize } from '../_stats.js'
import { intentAccuracyRows } from './intent-accuracy.js'

/** A realistic mix: what agents and people type, English and Chinese, every intent. */
export const QUERY_MIX = [
  'Bun vs Deno',
  'rust async runtime',
  'how to write a kubernetes operator',
  'k8s operator tutorial',
  'Deno 2 latest release',
  'is github down',
  'PostgreSQL 17 release notes',
  'what is WebTransport',
  'react server components explained',
  'best python asyncio libraries',
  'OpenAI news this week',
  'FastAPI vs Flask vs Django performance',
  'awesome rust crates list',
  'C# vs Java for backend',
  'how does RISC-V vector extension work',
  'next.js 15 changelog',
  'Rust 异步编程 教程',
  'Bun 和 Deno 哪个好',
  'Kubernetes 最新版本',
  '什么是 WebTransport',
  'PostgreSQL 性能 优化 指南',
  'AI 新闻 今天',
  'Python asyncio 入门',
  'React 19 新特性',
  '如何 学习 Go 语言',
  'vue vs react 对比 2026',
  'RISC-V 开发板 推荐',
  'tokio runtime docs',
  'why is my docker build slow',
  'latest TypeScript 5.9 features',
]

/** Scenario 5: classifyIntent (rules alone and rules + model) and expandQuery over the query mix, and accuracy. */
export async function intentScenario(ctx: ScenarioContext): Promise<VariantResult[]> {
  const rounds = ctx.quick ? 20 : 300
  const now = () => new Date('2026-11-20T12:00:00Z')
  const perQuery = { rules: [] as number[], classify: [] as number[], both: [] as number[] }
  let subQueries = 0
  for (let round = 0; round < rounds + 5; round++) {
    for (const query of QUERY_MIX) {
      const t0 = performance.now()
      classifyIntent(query, { model: false })
      const t1 = performance.now()
      const c = classifyIntent(query)
      const t2 = performance.now()
      const e = expandQuery(query, c, { maxQueries: 3, now })
      const t3 = performance.now()
      if (round < 5) continue
      perQuery.rules.push(t1 - t0)
      perQuery.classify.push(t2 - t1)
      perQuery.both.push(t3 - t1)
      subQueries += e.queries.length
    }
  }
  const n = rounds * QUERY_MIX.length
  const rules = summarize(perQuery.rules)
  const classify = summarize(perQuery.classify)
  const both = summarize(perQuery.both)
  const p99 = (samples: number[]) =>
    percentile(
      [...samples].sort((a, b) => a - b),
      99,
    )
  const note = (s: { p50: number }, samples: number[]) =>
    `p50 ${s.p50.toFixed(3)} ms, p99 ${p99(samples).toFixed(3)} ms`
  ctx.log(`intent+expand: ${Math.round(1000 / both.mean)} queries/s`)
  return [
    ...intentAccuracyRows(ctx),
    {
      scenario: '5 intent + expand',
      variant: `classifyIntent, rules alone (baseline), ${QUERY_MIX.length} EN/ZH queries`,
      latency: rules,
      throughput: { value: Math.round(1000 / rules.mean), unit: 'queries/s' },
      extra: { p99: p99(perQuery.rules) },
      note: note(rules, perQuery.rules),
    },
    {
      scenario: '5 intent + expand',
      variant: `classifyIntent, rules + model, ${QUERY_MIX.length} EN/ZH queries`,
      latency: classify,
      throughput: { value: Math.round(1000 / classify.mean), unit: 'queries/s' },
      extra: { p99: p99(perQuery.classify) },
      note: note(classify, perQuery.classify),
    },
    {
      scenario: '5 intent + expand',
      variant: 'classifyIntent (rules + model) + expandQuery',
      latency: both,
      throughput: { value: Math.round(1000 / both.mean), unit: 'queries/s' },
      note: `${(subQueries / n).toFixed(2)} sub-queries per query`,
    },
  ]
}
