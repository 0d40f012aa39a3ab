import { describe, expect, it } from 'vitest'
import { LINEAR_GROWTH_LIMIT, measureGrowth } from './growth.js'

// The measurer is what every complexity suite stands on: it must tell a linear scan from a quadratic one on the
// same shared heap the suites run on, or those suites pass whatever they measure.
const text = (n: number) => 'ab'.repeat(n)

function linearScan(input: string): number {
  let count = 0
  for (let i = 0; i < input.length; i++) if (input.charCodeAt(i) === 97) count++
  return count
}

// Every position compared with every later one up to a cap proportional to n: the shape of a backtracking scan.
function quadraticScan(input: string): number {
  let count = 0
  for (let i = 0; i < input.length; i++)
    for (let j = i + 1; j < input.length; j++) if (input.charCodeAt(i) === input.charCodeAt(j)) count++
  return count
}

// Spends `ms` of the process's CPU time, whatever the load: ratios exact enough to test when the rounds may stop.
function burnCpu(ms: number): void {
  const cpu = () => {
    const used = process.cpuUsage()
    return (used.user + used.system) / 1000
  }
  const end = cpu() + ms
  while (cpu() < end);
}

describe('measureGrowth', { timeout: 60_000 }, () => {
  it('keeps a linear scan under the line', () => {
    const growth = measureGrowth(text, linearScan, { n: 10_000, runs: 5, retryAbove: LINEAR_GROWTH_LIMIT })
    expect(growth.ratio, JSON.stringify(growth)).toBeLessThan(LINEAR_GROWTH_LIMIT)
    expect(growth.sizes).toEqual([growth.sizes[0], growth.sizes[0] * 2, growth.sizes[0] * 4])
  })

  it('puts a quadratic scan over the line', () => {
    // A smallest size of ≥ 10 ms a run: on a loaded host the process's other threads added ~2 ms to a 3.7 ms run at
    // n = 800 (a 3 ms floor), and the ratio read 8.6 instead of ~16. Load only lowers the ratio of a fast baseline.
    const growth = measureGrowth(text, quadraticScan, { n: 200, runs: 3, minMs: 10, maxN: 2_000 })
    expect(growth.ratio, JSON.stringify(growth)).toBeGreaterThan(LINEAR_GROWTH_LIMIT)
  })

  it('ends the timed rounds after three once the ratio is under half the line', () => {
    const growth = measureGrowth((n) => n, burnCpu, { n: 3, runs: 7, retryAbove: LINEAR_GROWTH_LIMIT })
    expect(growth.rounds, JSON.stringify(growth)).toBe(3)
    expect(growth.ratio).toBeLessThan(LINEAR_GROWTH_LIMIT / 2)
  })

  it('times every round of a scan that grows faster, and it stays over the line', () => {
    const growth = measureGrowth(
      (n) => n,
      (n) => burnCpu(n * n),
      { n: 1, minMs: 1, runs: 4, retryAbove: LINEAR_GROWTH_LIMIT, attempts: 1 },
    )
    expect(growth.rounds, JSON.stringify(growth)).toBe(4)
    expect(growth.ratio).toBeGreaterThan(LINEAR_GROWTH_LIMIT)
  })
})
