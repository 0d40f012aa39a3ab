import { setFlagsFromString } from 'node:v8'

/** What `applyHeapGrowth` did: set the factor, left the operator's command-line flag, or left V8's default. */
export type HeapGrowthOutcome = { applied: true; percent: number } | { applied: false; reason: 'off' | 'command line' }

const FLAG = /^--heap[-_]growing[-_]percent(?:=|$)/

/**
 * Bounds how far V8 grows the heap past the data alive after a full collection. Under sustained load a server
 * allocates fast and much of it lives across a scavenge or two (a request in flight), so it is promoted and dies
 * old; V8's default factor (up to 4× the live data while allocation is fast) then lets the RSS of a server whose
 * live heap is ~40 MB reach 300 MB and more. V8 reads this factor at every collection, so setting it after start-up
 * works, unlike the heap limits; NODE_OPTIONS refuses the flag, so without this an operator could not set it at all
 * through `search-layer serve`.
 */
export function applyHeapGrowth(percent: number, execArgv: readonly string[] = process.execArgv): HeapGrowthOutcome {
  if (execArgv.some((arg) => FLAG.test(arg))) return { applied: false, reason: 'command line' }
  if (percent === 0) return { applied: false, reason: 'off' }
  setFlagsFromString(`--heap-growing-percent=${percent}`)
  return { applied: true, percent }
}
