import { describe, expect, it } from 'vitest'
import type { LatencySummary } from './_latency.js'
import { chooseStandIn } from './_stand-in.js'

const timed = (ms: number, atLeast = false): LatencySummary => {
  const q = { ms, ...(atLeast && { atLeast: true as const }) }
  return { samples: 10, late: atLeast ? 10 : 0, p50: q, p90: q, p95: q }
}

function facts(
  latency: Record<string, LatencySummary | undefined>,
  { busy = [] as string[], off = [] as string[] } = {},
) {
  const asked: string[] = []
  return {
    asked,
    unavailable: async (name: string) => {
      asked.push(name)
      return off.includes(name) ? `${name} is off` : undefined
    },
    latencyOf: (name: string) => latency[name],
    hasCapacity: (name: string) => !busy.includes(name),
  }
}

describe('chooseStandIn', () => {
  it('asks about no other engine when the preferred one is not slow', async () => {
    const f = facts({ exa: timed(1100), grok: timed(300) })
    expect(await chooseStandIn(['exa', 'grok', 'tavily'], f)).toBeUndefined()
    expect(f.asked).toEqual(['exa'])
  })

  it('compares with the median of the others: one quick engine among slow ones is no reason', async () => {
    const f = facts({ exa: timed(4000), grok: timed(9000), tavily: timed(1000), brave: timed(5000) })
    expect(await chooseStandIn(['exa', 'grok', 'tavily', 'brave'], f)).toBeUndefined()
  })

  it('takes the quickest with capacity, passing over every engine before it with a reason', async () => {
    const f = facts({ exa: timed(7000), grok: timed(900), tavily: timed(1600) }, { busy: ['grok'] })
    const choice = await chooseStandIn(['exa', 'grok', 'tavily'], f)
    expect(choice?.standIn).toBe('tavily')
    expect(choice?.passedOver.map((p) => p.name)).toEqual(['exa', 'grok'])
    expect(choice?.passedOver[1]?.reason).toBe('passed over: its pace starts no call now; tavily (p50 1.6 s) stands in')
  })

  it('never takes an engine known only by a lower bound as the quick one, nor one not timed', async () => {
    const f = facts({ exa: timed(7000), grok: timed(1000, true), tavily: undefined })
    expect(await chooseStandIn(['exa', 'grok', 'tavily'], f)).toBeUndefined()
  })

  it('starts from the first engine that can be called', async () => {
    const f = facts({ grok: timed(7000), tavily: timed(1600) }, { off: ['exa'] })
    const choice = await chooseStandIn(['exa', 'grok', 'tavily'], f)
    expect(choice).toEqual({
      standIn: 'tavily',
      passedOver: [
        { name: 'exa', reason: 'exa is off' },
        { name: 'grok', reason: expect.stringMatching(/^passed over: typically slow \(p50 7\.0 s/) },
      ],
    })
  })
})
