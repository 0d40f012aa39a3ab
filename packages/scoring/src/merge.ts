import { canonicalUrl, type ProviderName } from '@search-layer/core'
import type { MergedResult, MergeOptions, ResultBatch } from './_merge-types.js'
import { KeyOrder } from './_key-order.js'
import { clean, forgetSeen, pickDate, pickSnippet, pickTitle } from './_merge-fields.js'
import { cmp, type Occurrences, sortGroup, type Urls } from './_merge-occurrences.js'
import { providerOrderOf, sourceText, sourceTextsFor } from './_merge-sources.js'
import { pickUrl } from './_merge-url.js'

export type { MergeableResult, MergedResult, MergeOptions, ResultBatch } from './_merge-types.js'

/** Every occurrence of every result, packed: the lists, queries, URLs and canonical groups they belong to. */
interface MergeTable {
  occ: Occurrences
  occCount: number
  urls: Urls
  lists: Map<string, number>
  queryTexts: string[]
  groupKeys: string[]
  keyOrder: KeyOrder
  groupSize: Int32Array
}

/** What fusing each group gave, by group number: the results and the keys `rankGroups` orders them by. */
interface FusedGroups {
  out: MergedResult[]
  raws: Float64Array
  sourceCounts: Int32Array
  bestRankOf: Float64Array
}

/**
 * Reads every batch once into packed arrays sized by `total`: each result's rank, provider, query, list and URL, and
 * each URL's canonical group (canonicalised once per distinct URL string).
 */
function collectOccurrences(
  batchList: readonly ResultBatch[],
  total: number,
  providerOrder: readonly string[],
): MergeTable {
  const lists = new Map<string, number>()
  const queryIds = new Map<string, number>()
  const queryTexts: string[] = []
  const occ: Occurrences = {
    rank: new Float64Array(total),
    provider: new Int32Array(total),
    queryOrder: new Int32Array(total),
    query: new Int32Array(total),
    list: new Int32Array(total),
    url: new Int32Array(total),
    result: new Array(total),
    byGroup: new Int32Array(total),
  }
  // Providers and sub-queries return the same URL strings over and over: canonicalise each one once, and map
  // it straight to its group.
  const urlIds = new Map<string, number>()
  const urls: Urls = { text: [], group: new Int32Array(total), flags: new Int8Array(total).fill(-1) }
  const groupIds = new Map<string, number>()
  const groupKeys: string[] = []
  const keyOrder = new KeyOrder(total)
  const groupSize = new Int32Array(total)
  let occCount = 0
  const providerIndexes = new Map(providerOrder.map((name, index) => [name, index]))
  const providerCount = providerOrder.length

  for (const batch of batchList) {
    if (batch === null || typeof batch !== 'object' || !Array.isArray(batch.results)) continue
    const query = typeof batch.query === 'string' ? batch.query : ''
    const provider = batch.provider
    const providerIndex = providerIndexes.get(provider) ?? providerCount
    const listKey = `${provider}\u0000${query}`
    let list = lists.get(listKey)
    if (list === undefined) {
      list = lists.size
      lists.set(listKey, list)
    }
    let queryId = queryIds.get(query)
    if (queryId === undefined) {
      queryId = queryTexts.length
      queryIds.set(query, queryId)
      queryTexts.push(query)
    }
    const results = batch.results
    // A getter could hand back a longer array than the one counted: never write past the arrays' size.
    const length = Math.min(results.length, total - occCount)
    for (let index = 0; index < length; index++) {
      const result = results[index]
      if (result === null || typeof result !== 'object') continue
      const url = clean(result.url)
      if (url === '') continue
      const given = result.rank
      const rank = typeof given === 'number' && Number.isInteger(given) && given >= 1 ? given : index + 1
      let urlId = urlIds.get(url)
      if (urlId === undefined) {
        const key = canonicalUrl(url)
        let group = groupIds.get(key)
        if (group === undefined) {
          group = groupKeys.length
          groupIds.set(key, group)
          groupKeys.push(key)
          keyOrder.add(key)
        }
        urlId = urls.text.length
        urlIds.set(url, urlId)
        urls.text.push(url)
        urls.group[urlId] = group
      }
      occ.rank[occCount] = rank
      occ.provider[occCount] = providerIndex
      occ.query[occCount] = queryId
      occ.list[occCount] = list
      occ.url[occCount] = urlId
      occ.result[occCount] = result
      occCount++
      groupSize[urls.group[urlId]!]!++
    }
  }
  return { occ, occCount, urls, lists, queryTexts, groupKeys, keyOrder, groupSize }
}

/**
 * Numbers the queries two ways: by text (for comparators, written into `occ.queryOrder`) and in output order
 * (the caller's order first, then by text). Returns the output order by query number.
 */
function orderQueries(table: MergeTable, givenQueries: readonly string[] | undefined): Int32Array {
  const { occ, occCount, queryTexts } = table
  // Queries compare by their text; rank them once so comparators compare numbers.
  const queryCount = queryTexts.length
  const byText = queryTexts.map((_, i) => i).sort((a, b) => cmp(queryTexts[a]!, queryTexts[b]!))
  const textOrder: number[] = new Array(queryCount)
  for (let i = 0; i < queryCount; i++) textOrder[byText[i]!] = i
  const given = new Map((givenQueries ?? []).map((q, index) => [q, index]))
  const outputOrder = new Int32Array(queryCount)
  const byOutput = queryTexts
    .map((_, i) => i)
    .sort(
      (a, b) =>
        (given.get(queryTexts[a]!) ?? Number.MAX_SAFE_INTEGER) -
          (given.get(queryTexts[b]!) ?? Number.MAX_SAFE_INTEGER) || cmp(queryTexts[a]!, queryTexts[b]!),
    )
  for (let i = 0; i < queryCount; i++) outputOrder[byOutput[i]!] = i
  for (let o = 0; o < occCount; o++) occ.queryOrder[o] = textOrder[occ.query[o]!]!
  return outputOrder
}

/** Counting sort of occurrences by group into `occ.byGroup`; returns where each group starts in it. */
function groupOccurrences(table: MergeTable): Int32Array {
  const { occ, occCount, urls, groupKeys, groupSize } = table
  // Counting sort of occurrences by group, in arrival order within a group (so the stable sort below breaks
  // ties the way sorting each group's arrival-ordered list would).
  const groupCount = groupKeys.length
  const start = new Int32Array(groupCount + 1)
  for (let g = 0; g < groupCount; g++) start[g + 1] = start[g]! + groupSize[g]!
  const fill = start.slice(0, groupCount)
  const byGroup = occ.byGroup
  for (let o = 0; o < occCount; o++) byGroup[fill[urls.group[occ.url[o]!]!]!++] = o
  return start
}

/**
 * Fuses each group into one result: its reciprocal-rank sum over the lists that found it (one vote per list), its
 * sources with their best ranks and scores, the queries that found it, and the best URL, title, snippet and date.
 */
function fuseGroups(
  table: MergeTable,
  start: Int32Array,
  outputOrder: Int32Array,
  context: { k: number; now: Date; providerOrder: readonly string[]; sourceTexts: string[] | undefined },
): FusedGroups {
  const { occ, urls, lists, queryTexts, groupKeys, groupSize } = table
  const { k, now, providerOrder, sourceTexts } = context
  const providerCount = providerOrder.length
  const byGroup = occ.byGroup
  const groupCount = groupKeys.length
  const queryCount = queryTexts.length
  const listCount = Math.max(1, lists.size)
  const norm = listCount / (k + 1)
  const generalDates = new Map<string, number | null>()
  const out: MergedResult[] = new Array(groupCount)
  const raws = new Float64Array(groupCount)
  const sourceCounts = new Int32Array(groupCount)
  const bestRankOf = new Float64Array(groupCount)
  // Per provider (by `providerOrder` index), reused for every group.
  const bestRanks = new Float64Array(providerCount)
  const bestScores = new Float64Array(providerCount)
  // "Already seen in this group" marks: hold the number of the group that last saw each list and query.
  const listSeen = new Int32Array(lists.size).fill(-1)
  const querySeen = new Int32Array(queryCount).fill(-1)
  const groupQueries: number[] = []

  for (let g = 0; g < groupCount; g++) {
    const first = start[g]!
    const count = groupSize[g]!
    if (count > 1) sortGroup(occ, first, first + count)
    bestRanks.fill(0)
    bestScores.fill(Number.NaN)
    // Best first, so the first occurrence per list and per provider carries its best rank. One vote per
    // (provider, query) list: a list repeating a page does not count twice. The votes come in ascending rank,
    // so the float sum below has a fixed order: addition is not associative, and the output must not depend on
    // arrival order.
    let raw = 0
    groupQueries.length = 0
    for (let i = 0; i < count; i++) {
      const o = byGroup[first + i]!
      const list = occ.list[o]!
      const rank = occ.rank[o]!
      if (listSeen[list] !== g) {
        listSeen[list] = g
        raw += 1 / (k + rank)
      }
      const q = occ.query[o]!
      if (querySeen[q] !== g) {
        querySeen[q] = g
        // Insertion in output order: a page is found by a few queries at most.
        let at = groupQueries.length
        while (at > 0 && outputOrder[groupQueries[at - 1]!]! > outputOrder[q]!) {
          groupQueries[at] = groupQueries[at - 1]!
          at--
        }
        groupQueries[at] = q
      }
      const p = occ.provider[o]!
      if (p === providerCount) continue
      if (bestRanks[p] === 0) bestRanks[p] = rank
      const score = occ.result[o]!.providerScore
      if (typeof score === 'number' && Number.isFinite(score) && !(score <= bestScores[p]!)) bestScores[p] = score
    }
    raw /= norm
    const sources: ProviderName[] = []
    const ranks: Partial<Record<ProviderName, number>> = {}
    const providerScores: Partial<Record<ProviderName, number>> = {}
    let mask = 0
    for (let p = 0; p < providerCount; p++) {
      const best = bestRanks[p]!
      if (best === 0) continue
      const name = providerOrder[p]!
      sources.push(name)
      mask |= 1 << p
      ranks[name] = best
      const score = bestScores[p]!
      if (!Number.isNaN(score)) providerScores[name] = score
    }
    const queries: string[] = new Array(groupQueries.length)
    for (let i = 0; i < groupQueries.length; i++) queries[i] = queryTexts[groupQueries[i]!]!

    const url = pickUrl(occ, urls, first, count)
    const title = pickTitle(occ, first, count, url)
    raws[g] = raw
    sourceCounts[g] = sources.length
    bestRankOf[g] = occ.rank[byGroup[first]!]!
    out[g] = {
      title,
      url,
      canonicalUrl: groupKeys[g]!,
      snippet: pickSnippet(occ, first, count, title),
      publishedAt: pickDate(occ, first, count, now, generalDates),
      sources,
      source: sourceText(sourceTexts, mask, sources),
      ranks,
      providerScores,
      queries,
      fusion: Math.round(Math.min(1, raw) * 10_000) / 10_000,
    }
  }
  return { out, raws, sourceCounts, bestRankOf }
}

/** The groups by fusion score, then number of sources, then best rank, then canonical key: a total order. */
function rankGroups(fused: FusedGroups, keyOrder: KeyOrder): MergedResult[] {
  const { out, raws, sourceCounts, bestRankOf } = fused
  const groupCount = out.length
  const order: number[] = new Array(groupCount)
  for (let g = 0; g < groupCount; g++) order[g] = g
  // Comparators answer -1/0/1: a fractional difference handed back to the sort builtin is a heap number each.
  order.sort((a, b) => {
    const raw = raws[b]! - raws[a]!
    if (raw !== 0) return raw > 0 ? 1 : -1
    const sourced = sourceCounts[b]! - sourceCounts[a]!
    if (sourced !== 0) return sourced
    const ranked = bestRankOf[a]! - bestRankOf[b]!
    if (ranked !== 0) return ranked > 0 ? 1 : -1
    return keyOrder.compare(a, b)
  })
  const sorted: MergedResult[] = new Array(groupCount)
  for (let i = 0; i < groupCount; i++) sorted[i] = out[order[i]!]!
  return sorted
}

/**
 * Fold results from every provider and sub-query into one list, grouped by `canonicalUrl`, ordered by normalised
 * reciprocal rank fusion (Σ 1/(k+rank) over the lists that found a page). The same batches in any order give
 * the same output. Never throws.
 */
export function merge(batches: readonly ResultBatch[], options: MergeOptions = {}): MergedResult[] {
  const k = options.k !== undefined && Number.isFinite(options.k) && options.k >= 0 ? options.k : 60
  const now = options.now ?? new Date()
  // Two passes (size, then fill): a one-shot iterable is read into an array first.
  const batchList: readonly ResultBatch[] = Array.isArray(batches) ? batches : [...(batches ?? [])]
  let total = 0
  for (const batch of batchList) {
    if (batch !== null && typeof batch === 'object' && Array.isArray(batch.results)) total += batch.results.length
  }
  const providerOrder = providerOrderOf(batchList, options.providers)
  const table = collectOccurrences(batchList, total, providerOrder)
  const outputOrder = orderQueries(table, options.queries)
  const start = groupOccurrences(table)
  const fused = fuseGroups(table, start, outputOrder, {
    k,
    now,
    providerOrder,
    sourceTexts: sourceTextsFor(providerOrder),
  })
  forgetSeen()
  return rankGroups(fused, table.keyOrder)
}
