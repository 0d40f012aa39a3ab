/** The parts of a V8 `.cpuprofile` the summary reads. */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number }[]
  samples?: number[]
  timeDeltas?: number[]
  startTime: number
  endTime: number
}

/** One function's share of self time. */
export interface HotFunction {
  name: string
  location: string
  selfMs: number
  selfPct: number
}

/** Top functions by self time (sampled), grouped by name and location; `(idle)` and `(program)` included. */
export function topSelfTime(profile: CpuProfile, limit = 15): HotFunction[] {
  const byNode = new Map<number, number>()
  const samples = profile.samples ?? []
  const deltas = profile.timeDeltas ?? []
  for (let i = 0; i < samples.length; i++)
    byNode.set(samples[i]!, (byNode.get(samples[i]!) ?? 0) + (deltas[i + 1] ?? deltas[i] ?? 0))
  const grouped = new Map<string, HotFunction>()
  const totalUs = profile.endTime - profile.startTime
  for (const node of profile.nodes) {
    const us = byNode.get(node.id) ?? 0
    if (!us) continue
    const { functionName, url, lineNumber } = node.callFrame
    const file = url.replace(/^file:\/\//, '').replace(/^.*\/(node_modules|packages|apps|bench)\//, '$1/')
    const location = file ? `${file}:${lineNumber + 1}` : ''
    const key = `${functionName}@${location}`
    const entry = grouped.get(key) ?? { name: functionName || '(anonymous)', location, selfMs: 0, selfPct: 0 }
    entry.selfMs += us / 1000
    grouped.set(key, entry)
  }
  return [...grouped.values()]
    .map((e) => ({
      ...e,
      selfMs: Math.round(e.selfMs * 10) / 10,
      selfPct: Math.round((e.selfMs * 1000 * 1000) / totalUs) / 10,
    }))
    .sort((a, b) => b.selfMs - a.selfMs)
    .slice(0, limit)
}
