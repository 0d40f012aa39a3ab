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

describe('measureGrowth', { timeout: 60_000 }, () => {
  it('keeps a linear scan under the line', () => {
    const growth = measureGrowth(text, linearScan, { n: 10_000, runs: 5, retryAbove: LINEAR_GROWTH_LIMIT })
    expect(growth.ratio, JSON.stringify(growth)).toBeLessThan(LINEAR_GROWTH_LIMIT)
    expect(growth.sizes).toEqual([growth.sizes[0], growth.sizes[0] * 2, growth.sizes[0] * 4])
  })

  it('puts a quadratic scan over the line', () => {
    const growth = measureGrowth(text, quadraticScan, { n: 200, runs: 3, maxN: 2_000 })
    expect(growth.ratio, JSON.stringify(growth)).toBeGreaterThan(LINEAR_GROWTH_LIMIT)
  })
})
