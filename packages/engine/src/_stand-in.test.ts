import { describe, expect, it } from 'vitest'
import type { LatencySummary } from './_latency.js'
import { chooseStandIn } from './_stand-in.js'

const timed = (ms: number, atLeast = false): LatencySummary => {
  const q = { ms, ...(atLeast && { atLeast: true as const }) }
  return { samples: 10, late: atLeast ? 10 : 0, p50: q, p90: q, p95: q }
}

// The built-in engines' `typicalLatencyMs`.
const TYPICAL: Record<string, number> = { brave: 450, exa: 1100, tavily: 1500, grok: 8000 }

function facts(
  latency: Record<string, LatencySummary | undefined>,
  { busy = [] as string[], off = [] as string[], typical = TYPICAL } = {},
) {
  const asked: string[] = []
  return {
    asked,
    unavailable: async (name: string) => {
      asked.push(name)
      return off.includes(name) ? `${name} is off` : undefined
    },
    latencyOf: (name: string) => latency[name],
    typicalMsOf: (name: string) => typical[name] ?? 1000,
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

  it('never takes an engine known only by a lower bound as the quick one', async () => {
    const f = facts({ exa: timed(7000), grok: timed(1000, true), tavily: timed(5000) })
    expect(await chooseStandIn(['exa', 'grok', 'tavily'], f)).toBeUndefined()
  })

  it('goes by the typical latencies of the definitions until calls are timed (a fresh process)', async () => {
    // No Exa key, nothing learned: Grok (usually 8 s) would fill fast mode's qa slot; Tavily (1.5 s) stands in.
    const choice = await chooseStandIn(['exa', 'grok', 'tavily'], facts({}, { off: ['exa'] }))
    expect(choice).toEqual({
      standIn: 'tavily',
      passedOver: [
        { name: 'exa', reason: 'exa is off' },
        {
          name: 'grok',
          reason: 'passed over: typically slow (usually 8.0 s, not timed yet); tavily (usually 1.5 s) stands in',
        },
      ],
    })
    // Too few calls timed count as none.
    const twoCalls = { ...timed(900), samples: 2 }
    expect((await chooseStandIn(['grok', 'tavily'], facts({ grok: twoCalls })))?.standIn).toBe('tavily')
  })

  it('lets latency learned from three calls override the typical one, either way', async () => {
    // Grok timed quick (a nearby deployment, the emulator): it keeps its slot.
    expect(await chooseStandIn(['exa', 'grok', 'tavily'], facts({ grok: timed(900) }, { off: ['exa'] }))).toBe(
      undefined,
    )
    // Tavily timed slow: no quicker engine is left, so Grok keeps its slot too.
    expect(await chooseStandIn(['grok', 'tavily'], facts({ tavily: timed(6000) }))).toBeUndefined()
    // Exa (usually 1.1 s) timed at 7 s: Tavily, not timed, stands in by its typical 1.5 s.
    const choice = await chooseStandIn(['exa', 'tavily'], facts({ exa: timed(7000) }))
    expect(choice?.passedOver[0]?.reason).toBe(
      'passed over: typically slow (p50 7.0 s over its last 10 calls); tavily (usually 1.5 s) stands in',
    )
  })

  it('gives a plug-in without a typical latency the default: never far slower by itself', async () => {
    const f = facts({}, { typical: {} })
    expect(await chooseStandIn(['mine', 'other'], f)).toBeUndefined()
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
