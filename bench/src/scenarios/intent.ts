import { readFileSync } from 'node:fs'
import { performance } from 'node:perf_hooks'
import { INTENTS } from '@search-layer/core'
import { expandQuery } from '@search-layer/expand'
import { classifyIntent } from '@search-layer/intent'
import type { ScenarioContext } from '../_context.js'
import type { VariantResult } from '../_report.js'
import { summarize } from '../_stats.js'

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

interface LabelledQuery {
  query: string
  intent: string
  split: 'tune' | 'holdout'
}

/** The labelled real-phrasing set of the intent package (see its test/fixtures/README.md). */
function labelledQueries(): LabelledQuery[] {
  const file = new URL('../../packages/intent/test/fixtures/real-queries.jsonl', import.meta.url)
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as LabelledQuery)
}

function share(rows: readonly { ok: boolean }[]): number {
  return rows.length === 0 ? 0 : Math.round((rows.filter((r) => r.ok).length / rows.length) * 1000) / 1000
}

/** Accuracy of the rules on real phrasing: per split, per intent, and sure vs unsure answers. */
function accuracyRows(ctx: ScenarioContext): VariantResult[] {
  const rows = labelledQueries().map((r) => {
    const c = classifyIntent(r.query)
    return { ...r, ok: c.intent === r.intent, uncertain: c.uncertain }
  })
  const out: VariantResult[] = []
  for (const split of ['tune', 'holdout'] as const) {
    const part = rows.filter((r) => r.split === split)
    out.push({
      scenario: '5 intent accuracy',
      variant: `${split} split (${part.length} queries)`,
      extra: { accuracy: share(part), queries: part.length },
      note: `accuracy ${share(part)}`,
    })
  }
  const perIntent = Object.fromEntries(INTENTS.map((i) => [i, share(rows.filter((r) => r.intent === i))]))
  const sure = rows.filter((r) => !r.uncertain)
  const unsure = rows.filter((r) => r.uncertain)
  out.push({
    scenario: '5 intent accuracy',
    variant: `all (${rows.length} queries, ${rows.filter((r) => /\p{Script=Han}/u.test(r.query)).length} Chinese)`,
    extra: { accuracy: share(rows), perIntent, sure: share(sure), unsure: share(unsure), unsureCount: unsure.length },
    note: `accuracy ${share(rows)}; ${INTENTS.map((i) => `${i} ${perIntent[i]}`).join(', ')}; sure ${share(sure)} (${sure.length}), uncertain ${share(unsure)} (${unsure.length})`,
  })
  ctx.log(`intent accuracy: ${share(rows)} over ${rows.length} real queries`)
  return out
}

/** Scenario 5: classifyIntent + expandQuery throughput over the query mix, and accuracy on real phrasing. */
export async function intentScenario(ctx: ScenarioContext): Promise<VariantResult[]> {
  const rounds = ctx.quick ? 20 : 300
  const now = () => new Date('2026-11-20T12:00:00Z')
  const perQuery = { classify: [] as number[], both: [] as number[] }
  let subQueries = 0
  for (let round = 0; round < rounds + 5; round++) {
    for (const query of QUERY_MIX) {
      const t0 = performance.now()
      const c = classifyIntent(query)
      const t1 = performance.now()
      const e = expandQuery(query, c, { maxQueries: 3, now })
      const t2 = performance.now()
      if (round < 5) continue
      perQuery.classify.push(t1 - t0)
      perQuery.both.push(t2 - t0)
      subQueries += e.queries.length
    }
  }
  const n = rounds * QUERY_MIX.length
  const classify = summarize(perQuery.classify)
  const both = summarize(perQuery.both)
  ctx.log(`intent+expand: ${Math.round(1000 / both.mean)} queries/s`)
  return [
    ...accuracyRows(ctx),
    {
      scenario: '5 intent + expand',
      variant: `classifyIntent, ${QUERY_MIX.length} EN/ZH queries`,
      latency: classify,
      throughput: { value: Math.round(1000 / classify.mean), unit: 'queries/s' },
    },
    {
      scenario: '5 intent + expand',
      variant: 'classifyIntent + expandQuery',
      latency: both,
      throughput: { value: Math.round(1000 / both.mean), unit: 'queries/s' },
      note: `${(subQueries / n).toFixed(2)} sub-queries per query`,
    },
  ]
}
