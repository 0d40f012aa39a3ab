/** Shared by merge's parts: occurrences packed in typed arrays, and the order that ranks them within a group. */
import type { MergeableResult } from './_merge-types.js'

export function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/**
 * Everything merge knows knows about one occurrence (one provider result), in parallel typed arrays indexed by
 * occurrence number, sized once: 10,000 results would otherwise be 10,000 short-lived objects (or arrays grown by
 * push), and their garbage collection.
 */
export interface Occurrences {
  /** Integers, but not necessarily small ones. */
  rank: Float64Array
  provider: Int32Array
  /** Position of the query in byte order: compares like the query strings themselves. */
  queryOrder: Int32Array
  query: Int32Array
  list: Int32Array
  /** Index into `Urls`. */
  url: Int32Array
  result: MergeableResult[]
  /** Occurrence numbers grouped by group, each group's run sorted best first (see `byRankThenProvider`). */
  byGroup: Int32Array
}

/** Distinct cleaned URL strings of one merge; the properties pickUrl compares are worked out once per string. */
export interface Urls {
  text: string[]
  group: Int32Array
  /** Bit 1 tracking, 2 https, 4 mirror; -1 until first needed. */
  flags: Int8Array
}

/** Order occurrences best first; the final tie-breaks make the choice independent of arrival order. */
export function byRankThenProvider(occ: Occurrences, a: number, b: number): number {
  return occ.rank[a]! - occ.rank[b]! || occ.provider[a]! - occ.provider[b]! || occ.queryOrder[a]! - occ.queryOrder[b]!
}

/** Groups are a handful of occurrences: an insertion sort (stable) beats `Array#sort` and allocates nothing. */
const INSERTION_SORT_MAX = 32

export function sortGroup(occ: Occurrences, start: number, end: number): void {
  const byGroup = occ.byGroup
  if (end - start > INSERTION_SORT_MAX) {
    const sorted = Array.from(byGroup.subarray(start, end)).sort((a, b) => byRankThenProvider(occ, a, b))
    byGroup.set(sorted, start)
    return
  }
  for (let i = start + 1; i < end; i++) {
    const o = byGroup[i]!
    let j = i - 1
    while (j >= start && byRankThenProvider(occ, byGroup[j]!, o) > 0) {
      byGroup[j + 1] = byGroup[j]!
      j--
    }
    byGroup[j + 1] = o
  }
}
