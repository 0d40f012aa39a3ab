import { mkdir, writeFile } from 'node:fs/promises'
import { cpus, totalmem } from 'node:os'
import { join } from 'node:path'
import { type HostGauge, describeGauges } from './_host-gauge.js'
import type { Summary } from './_stats.js'

/** One measured variant of a scenario: a row of the summary table. */
export interface VariantResult {
  scenario: string
  variant: string
  /** Latency distribution (ms); absent for pure-throughput rows. */
  latency?: Summary
  /** Operations per second (searches, queries, URLs, requests). */
  throughput?: { value: number; unit: string }
  /** Upstream (emulator) calls per operation, or in total when `upstreamCallsTotal` says so. */
  upstreamCalls?: number
  /** Resident set size in MB of the process under test (peak where sampled). */
  rssMb?: number
  /** Anything else worth reading: overhead, round trips, errors, statuses. */
  extra?: Record<string, unknown>
  /** One line for the table's notes column. */
  note?: string
}

/** Everything `latest.json` holds. */
export interface BenchReport {
  date: string
  quick: boolean
  node: string
  platform: string
  cpu: { model: string; cores: number }
  memoryGb: number
  units: { latency: 'ms'; rss: 'MB'; throughput: 'per second' }
  durationMs: number
  /** How fast the host was at the run's start and end (see `_host-gauge.ts`). */
  host?: { start: HostGauge; end: HostGauge }
  results: VariantResult[]
  /** Scenarios that threw (the harness broke); the run exits non-zero when this is not empty. */
  failures: { scenario: string; message: string }[]
}

/** Machine facts for the report header. */
export function machine(): Pick<BenchReport, 'node' | 'platform' | 'cpu' | 'memoryGb'> {
  const list = cpus()
  return {
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    cpu: { model: list[0]?.model.trim() ?? 'unknown', cores: list.length },
    memoryGb: Math.round(totalmem() / 2 ** 30),
  }
}

const fmt = (x: number | undefined, digits = 1): string => {
  if (x === undefined || Number.isNaN(x)) return '–'
  if (Math.abs(x) >= 1000) return Math.round(x).toLocaleString('en-US')
  return x.toFixed(digits).replace(/\.0+$/, '')
}

function throughputCell(t: VariantResult['throughput']): string {
  return t ? `${fmt(t.value, t.value < 10 ? 2 : 0)} ${t.unit}` : '–'
}

/** The summary as a Markdown table (also readable in a terminal). */
export function formatTable(results: readonly VariantResult[]): string {
  const head = [
    'scenario',
    'variant',
    'n',
    'p50 ms',
    'p95 ms',
    'max ms',
    'throughput',
    'upstream calls',
    'RSS MB',
    'notes',
  ]
  const rows = results.map((r) => [
    r.scenario,
    r.variant,
    r.latency ? String(r.latency.n) : '–',
    fmt(r.latency?.p50, 2),
    fmt(r.latency?.p95, 2),
    fmt(r.latency?.max, 2),
    throughputCell(r.throughput),
    r.upstreamCalls === undefined ? '–' : fmt(r.upstreamCalls, 1),
    r.rssMb === undefined ? '–' : fmt(r.rssMb, 0),
    (r.note ?? '').replace(/\|/g, '\\|'),
  ])
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)))
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i >= 2 && i <= 8 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join(' | ')} |`
  const rule = `|${widths.map((w, i) => (i >= 2 && i <= 8 ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`
  return [line(head), rule, ...rows.map(line)].join('\n')
}

/** The Markdown file: header with the machine, the table, and how to reproduce. */
function formatMarkdown(report: BenchReport): string {
  return [
    `# search-layer benchmarks${report.quick ? ' (quick run)' : ''}`,
    '',
    `${report.date.slice(0, 10)} · Node ${report.node} · ${report.cpu.model} × ${report.cpu.cores} · ${report.memoryGb} GiB · ${report.platform}`,
    '',
    ...(report.host ? [describeGauges(report.host), ''] : []),
    formatTable(report.results),
    '',
    'Latencies are wall time per operation against the testkit emulator on loopback. Reproduce with',
    '`npx -y pnpm@10 bench` (full) or `npx -y pnpm@10 bench -- --quick`; raw numbers are in `latest.json`.',
    ...(report.failures.length
      ? ['', '**Failed scenarios:**', ...report.failures.map((f) => `- ${f.scenario}: ${f.message}`)]
      : []),
    '',
  ].join('\n')
}

/** Writes `latest.json` and `latest.md` into `dir`. */
export async function writeReport(dir: string, report: BenchReport): Promise<{ json: string; md: string }> {
  await mkdir(dir, { recursive: true })
  const json = join(dir, 'latest.json')
  const md = join(dir, 'latest.md')
  await writeFile(json, `${JSON.stringify(report, null, 2)}\n`)
  await writeFile(md, formatMarkdown(report))
  return { json, md }
}
