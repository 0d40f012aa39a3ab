// Folding near-identical passages of different pages (a press release on three sites, a README
// mirrored on a docs page): MinHash signatures of 3-shingles of search terms, bucketed by bands (LSH), so each
// passage is compared only with those sharing a band: linear in the passages' total length.
import type { Ranked } from './_rank.js'

const HASHES = 16
const BAND_ROWS = 4
// Share of equal MinHash values above which two passages count as the same text (≈ Jaccard ≥ 0.75).
const SAME_TEXT = 0.75
// A band shared by many passages that are not copies (a common phrase) is checked only this far,
// so a hostile page of near-misses costs a bounded number of comparisons per passage.
const MAX_BUCKET_CHECKS = 8
const SEEDS = Array.from({ length: HASHES }, (_, i) => Math.imul(i + 1, 0x9e3779b1) >>> 0)

/** A kept passage and the near-identical ones folded into it (lower-ranked, from other pages or the same one). */
export interface Folded {
  kept: Ranked
  folded: Ranked[]
}

/** Murmur3's 32-bit finaliser: spreads bits, so `mix(h ^ seed)` acts as an independent hash per seed. */
function mix(value: number): number {
  let h = value
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b)
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35)
  return (h ^ (h >>> 16)) >>> 0
}

function fnv1a(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193)
  return h >>> 0
}

function signature(terms: readonly string[]): Uint32Array {
  const termHashes = terms.map(fnv1a)
  const sig = new Uint32Array(HASHES).fill(0xffffffff)
  const shingles = Math.max(1, termHashes.length - 2)
  for (let i = 0; i < shingles; i++) {
    const shingle = mix((termHashes[i] ?? 0) ^ mix((termHashes[i + 1] ?? 0) ^ mix(termHashes[i + 2] ?? 0)))
    for (let k = 0; k < HASHES; k++) {
      const h = mix(shingle ^ SEEDS[k]!)
      if (h < sig[k]!) sig[k] = h
    }
  }
  return sig
}

function agreement(a: Uint32Array, b: Uint32Array): number {
  let same = 0
  for (let k = 0; k < HASHES; k++) if (a[k] === b[k]) same++
  return same / HASHES
}

/** Groups ranked passages (best first) so that each group's first passage stands for near-copies of it. */
export function foldNearDuplicates(ranked: readonly Ranked[]): Folded[] {
  const groups: (Folded & { sig: Uint32Array })[] = []
  const buckets = new Map<string, number[]>()
  for (const candidate of ranked) {
    const sig = signature(candidate.terms)
    const keys: string[] = []
    for (let band = 0; band < HASHES / BAND_ROWS; band++) {
      keys.push(`${band}:${sig.subarray(band * BAND_ROWS, (band + 1) * BAND_ROWS).join(',')}`)
    }
    let home: number | undefined
    for (const key of keys) {
      home = buckets
        .get(key)
        ?.slice(0, MAX_BUCKET_CHECKS)
        .find((g) => agreement(groups[g]!.sig, sig) >= SAME_TEXT)
      if (home !== undefined) break
    }
    if (home !== undefined) {
      groups[home]!.folded.push(candidate)
      continue
    }
    groups.push({ kept: candidate, folded: [], sig })
    for (const key of keys) {
      const bucket = buckets.get(key)
      if (bucket) bucket.push(groups.length - 1)
      else buckets.set(key, [groups.length - 1])
    }
  }
  return groups.map(({ kept, folded }) => ({ kept, folded }))
}
