import type { ProviderName } from '@search-layer/core'
import { type LatencySummary, formatLatency, isTimed } from './_latency.js'

// Fast and answer modes each fill a few slots (a question-answering index, a web index, a written answer) with the
// best engine for it, and wait for it. When that engine is typically far slower than the others that could fill the
// slot (Grok's web search takes 5–20 s where Exa answers in ~1 s), the search would wait for it every time: a
// quicker engine of the same slot stands in instead, and the response says why. What "typically" means is the p50 of
// the engine's own timed calls; until three are timed, its definition's `typicalLatencyMs` (the vendor's usual answer
// time), so a first run in a fresh process chooses as a later one will, rather than waiting 7 s for Grok once.

/** The preferred engine's p50 must exceed this many times the median of the others… */
const STAND_IN_RATIO = 2
/** …and this many ms: a 300 ms engine is never worth replacing by a 100 ms one. */
const STAND_IN_FLOOR_MS = 1500

/** What the choice needs to know about each candidate. */
export interface StandInFacts {
  /** Why it cannot be called now (no key, resting, over budget), or undefined. */
  unavailable: (name: ProviderName) => Promise<string | undefined>
  latencyOf: (name: ProviderName) => LatencySummary | undefined
  /** Its definition's `typicalLatencyMs`: what it is taken to take until its calls are timed. */
  typicalMsOf: (name: ProviderName) => number
  /** It can start a call now, or within the grace (not held back by its pace). */
  hasCapacity: (name: ProviderName) => boolean
}

/** Who stands in for whom, and what each provider passed over is told. */
export interface StandInChoice {
  standIn: ProviderName
  /** Every candidate before the stand-in in the slot's order, with the reason it was not asked. */
  passedOver: Array<{ name: ProviderName; reason: string }>
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

/** What a candidate is taken to take: its learned p50 once timed, else its definition's typical latency. */
interface Typical {
  ms: number
  /** Known only as a lower bound (every slower call was cut off): never the quick one. */
  atLeast?: true
  /** `p50 7.0 s`, `usually 8.0 s`. */
  short: string
  /** `p50 7.0 s over its last 10 calls`, `usually 8.0 s, not timed yet`. */
  long: string
}

function typicalLatency(name: ProviderName, facts: StandInFacts): Typical {
  const latency = facts.latencyOf(name)
  if (isTimed(latency)) {
    const short = `p50 ${formatLatency(latency.p50)}`
    return { ...latency.p50, short, long: `${short} over its last ${latency.samples} calls` }
  }
  const short = `usually ${formatLatency({ ms: facts.typicalMsOf(name) })}`
  return { ms: facts.typicalMsOf(name), short, long: `${short}, not timed yet` }
}

// Why a callable engine before the stand-in was not asked, in words.
function whyNot(name: ProviderName, preferred: boolean, facts: StandInFacts): string {
  if (!preferred && !facts.hasCapacity(name)) return 'its pace starts no call now'
  const typical = typicalLatency(name, facts)
  return preferred || typical.atLeast ? `typically slow (${typical.long})` : `slower (${typical.long})`
}

/**
 * A quicker stand-in for the slot `[name, ...its fallbacks]`, or undefined to keep the usual order. The preferred
 * engine is the first candidate that can be called; it is passed over when its typical latency (`typicalLatency`) is
 * above `STAND_IN_FLOOR_MS` and above `STAND_IN_RATIO` × the median of the other callable candidates' (those known
 * only by a lower bound left out), for the fastest of them with capacity, itself that much faster.
 */
export async function chooseStandIn(
  slot: readonly ProviderName[],
  facts: StandInFacts,
): Promise<StandInChoice | undefined> {
  // Asked in order and only as far as needed: a search whose preferred engine is not slow checks no other.
  const reasons = new Map<ProviderName, string | undefined>()
  const isCallable = async (name: ProviderName) => {
    reasons.set(name, await facts.unavailable(name))
    return reasons.get(name) === undefined
  }
  let preferred: ProviderName | undefined
  for (const name of slot) {
    if (!(await isCallable(name))) continue
    preferred = name
    break
  }
  if (preferred === undefined) return undefined
  const slow = typicalLatency(preferred, facts)
  if (slow.ms <= STAND_IN_FLOOR_MS) return undefined
  const others: ProviderName[] = []
  for (const name of slot.slice(slot.indexOf(preferred) + 1)) if (await isCallable(name)) others.push(name)
  const known = others.flatMap((name) => {
    const typical = typicalLatency(name, facts)
    return typical.atLeast ? [] : [{ name, ...typical }]
  })
  if (known.length === 0 || slow.ms <= STAND_IN_RATIO * median(known.map((k) => k.ms))) return undefined
  const quickest = known
    .filter((k) => facts.hasCapacity(k.name) && k.ms * STAND_IN_RATIO < slow.ms)
    .sort((a, b) => a.ms - b.ms)[0]
  if (!quickest) return undefined
  const stands = `${quickest.name} (${quickest.short}) stands in`
  const passedOver = slot.slice(0, slot.indexOf(quickest.name)).map((name) => {
    const unavailable = reasons.get(name)
    if (unavailable !== undefined) return { name, reason: unavailable }
    return { name, reason: `passed over: ${whyNot(name, name === preferred, facts)}; ${stands}` }
  })
  return { standIn: quickest.name, passedOver }
}
