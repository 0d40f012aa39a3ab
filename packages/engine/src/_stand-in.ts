import type { ProviderName } from '@search-layer/core'
import { type LatencySummary, formatLatency } from './_latency.js'

// Fast and answer modes each fill a few slots (a question-answering index, a web index, a written answer) with the
// best engine for it, and wait for it. When that engine is typically far slower than the others that could fill the
// slot (Grok's web search takes 5–20 s where Exa answers in ~1 s), the search would wait for it every time: a
// quicker engine of the same slot stands in instead, and the response says why.

/** The preferred engine's p50 must exceed this many times the median of the others… */
const STAND_IN_RATIO = 2
/** …and this many ms: a 300 ms engine is never worth replacing by a 100 ms one. */
const STAND_IN_FLOOR_MS = 1500
/** Samples an engine needs before its latency decides anything (a single slow call could be a fluke). */
const MIN_LATENCY_SAMPLES = 3

/** What the choice needs to know about each candidate. */
export interface StandInFacts {
  /** Why it cannot be called now (no key, resting, over budget), or undefined. */
  unavailable: (name: ProviderName) => Promise<string | undefined>
  latencyOf: (name: ProviderName) => LatencySummary | undefined
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

// Latency that can decide: enough samples, and for a stand-in a p50 actually seen (not only "at least").
const timed = (latency: LatencySummary | undefined): latency is LatencySummary =>
  latency !== undefined && latency.samples >= MIN_LATENCY_SAMPLES

// Why a callable engine before the stand-in was not asked, in words.
function whyNot(name: ProviderName, preferred: boolean, facts: StandInFacts): string {
  const latency = facts.latencyOf(name)
  if (!preferred && !facts.hasCapacity(name)) return 'its pace starts no call now'
  if (!timed(latency)) return 'not timed yet'
  const p50 = `p50 ${formatLatency(latency.p50)} over its last ${latency.samples} calls`
  return preferred || latency.p50.atLeast ? `typically slow (${p50})` : `slower (${p50})`
}

/**
 * A quicker stand-in for the slot `[name, ...its fallbacks]`, or undefined to keep the usual order. The preferred
 * engine is the first candidate that can be called; it is passed over when its learned p50 is above
 * `STAND_IN_FLOOR_MS` and above `STAND_IN_RATIO` × the median p50 of the other callable candidates timed, for the
 * fastest of them with capacity, itself that much faster.
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
  const slow = facts.latencyOf(preferred)
  if (!timed(slow) || slow.p50.ms <= STAND_IN_FLOOR_MS) return undefined
  const others: ProviderName[] = []
  for (const name of slot.slice(slot.indexOf(preferred) + 1)) if (await isCallable(name)) others.push(name)
  const known = others.flatMap((name) => {
    const latency = facts.latencyOf(name)
    return timed(latency) && !latency.p50.atLeast ? [{ name, p50: latency.p50.ms }] : []
  })
  if (known.length === 0 || slow.p50.ms <= STAND_IN_RATIO * median(known.map((k) => k.p50))) return undefined
  const quickest = known
    .filter((k) => facts.hasCapacity(k.name) && k.p50 * STAND_IN_RATIO < slow.p50.ms)
    .sort((a, b) => a.p50 - b.p50)[0]
  if (!quickest) return undefined
  const stands = `${quickest.name} (p50 ${formatLatency({ ms: quickest.p50 })}) stands in`
  const passedOver = slot.slice(0, slot.indexOf(quickest.name)).map((name) => {
    const unavailable = reasons.get(name)
    if (unavailable !== undefined) return { name, reason: unavailable }
    return { name, reason: `passed over: ${whyNot(name, name === preferred, facts)}; ${stands}` }
  })
  return { standIn: quickest.name, passedOver }
}
