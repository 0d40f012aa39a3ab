import { mkdtemp, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { type BenchReport, formatTable, machine, writeReport } from './_report.js'

const results: BenchReport['results'] = [
  {
    scenario: '4 merge + score',
    variant: '10,000 results',
    latency: { n: 50, p50: 21.456, p95: 30.1, max: 44, mean: 22 },
    throughput: { value: 450_000, unit: 'results/s' },
    rssMb: 120,
    note: 'a | b',
  },
  { scenario: '7 server', variant: 'cache hit', throughput: { value: 3200, unit: 'req/s' }, upstreamCalls: 0 },
]

describe('formatTable', () => {
  it('renders one aligned Markdown row per variant, dashes for what was not measured', () => {
    const lines = formatTable(results).split('\n')
    expect(lines).toHaveLength(4)
    expect(new Set(lines.map((l) => l.length)).size).toBe(1)
    expect(lines[2]).toContain('21.46')
    expect(lines[2]).toContain('450,000 results/s')
    expect(lines[2]).toContain('a \\| b')
    expect(lines[3]).toMatch(/\| +– \| +– \|/)
  })
})

describe('writeReport', () => {
  it('writes latest.json and latest.md with the machine and the table', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bench-report-'))
    const report: BenchReport = {
      date: '2026-11-22T05:00:00.000Z',
      quick: true,
      ...machine(),
      units: { latency: 'ms', rss: 'MB', throughput: 'per second' },
      durationMs: 1,
      host: { start: { nodeStartMs: 30, cpuWorkMs: 50 }, end: { nodeStartMs: 32, cpuWorkMs: 51 } },
      results,
      failures: [],
    }
    const { json, md } = await writeReport(dir, report)
    expect(JSON.parse(await readFile(json, 'utf8'))).toEqual(report)
    const text = await readFile(md, 'utf8')
    expect(text).toContain(`Node ${process.version}`)
    expect(text).toContain('| 7 server')
    expect(text).toContain('--quick')
    expect(text).toContain('Host gauge (p50; lower is a faster host): at the start `node -e 0` 30 ms')
  })
})
