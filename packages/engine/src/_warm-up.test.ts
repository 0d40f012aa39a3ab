import * as scoring from '@search-layer/scoring'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { AssembleContext } from './_assemble.js'
import { SearchRequestSchema } from './search-request-schema.js'

const context = (providers: string[]): AssembleContext => ({
  req: SearchRequestSchema.parse({ query: 'search layer warm up' }),
  baseQuery: 'search layer warm up',
  queries: ['search layer warm up'],
  classification: null,
  now: new Date('2026-11-26T00:00:00Z'),
  providers,
  answerOrder: [],
})

// The rehearsal runs once per process: each test gets a fresh copy of the module.
const freshWarmUp = async () => (await import('./_warm-up.js')).warmUpAssembly

describe('warmUpAssembly', () => {
  beforeEach(() => {
    vi.resetModules()
  })

  it('ranks its sample through the real scoring once per process', async () => {
    const warmUpAssembly = await freshWarmUp()
    const merge = vi.fn(scoring.merge)
    const rank = vi.fn(scoring.rank)
    // vi.fn drops rank's type parameter: the spy stands in for the generic function.
    const spied = { ...scoring, merge, rank: rank as unknown as typeof scoring.rank }
    warmUpAssembly(spied, context(['brave', 'exa']))
    expect(merge).toHaveBeenCalledTimes(1)
    expect(merge.mock.calls[0]![0]).toEqual([expect.objectContaining({ provider: 'brave' })])
    expect(rank.mock.results[0]).toMatchObject({ type: 'return', value: [expect.anything(), expect.anything()] })
    warmUpAssembly(spied, context(['brave', 'exa']))
    expect(merge).toHaveBeenCalledTimes(1)
  })

  it('never throws: a failing step is left for the real ranking to report', async () => {
    const warmUpAssembly = await freshWarmUp()
    const failing = {
      ...scoring,
      merge: () => {
        throw new Error('broken scoring')
      },
    }
    expect(() => warmUpAssembly(failing, context(['brave']))).not.toThrow()
  })

  it('does nothing without a provider to attribute the sample to', async () => {
    const warmUpAssembly = await freshWarmUp()
    const merge = vi.fn(scoring.merge)
    warmUpAssembly({ ...scoring, merge }, context([]))
    warmUpAssembly({ ...scoring, merge }, context(['brave']))
    expect(merge).toHaveBeenCalledTimes(1)
  })
})
