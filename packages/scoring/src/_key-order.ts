import { cmp } from './_merge-occurrences.js'

/** Key characters packed per number: 6 of at most 8 bits each (+1, so that a shorter key sorts first) fit in 2^53. */
const PACKED_CHARS = 6
const PACKED_WORDS = 4
/** Where packing starts: every http(s) key starts with it. */
const KEY_PREFIX = 'https://'

/**
 * `cmp` over canonical keys, which break most fusion ties in the final sort: thousands of string comparisons of
 * keys that share "https://" and often the host. Each key's next 24 characters are packed into numbers as the
 * key is added (while it is still in cache), and comparing those settles nearly every pair without the strings.
 */
export class KeyOrder {
  private readonly keys: string[] = []
  private packed: Float64Array
  /** 1 where a key starts with KEY_PREFIX and has no character above U+00FF in its packed part. */
  private packable: Uint8Array

  constructor(capacity: number) {
    this.packed = new Float64Array(Math.max(1, capacity) * PACKED_WORDS)
    this.packable = new Uint8Array(Math.max(1, capacity))
  }

  /** Add a key; its index is the number of keys added before it. */
  add(key: string): void {
    const g = this.keys.length
    this.keys.push(key)
    if (g >= this.packable.length) {
      const packed = new Float64Array(this.packed.length * 2)
      packed.set(this.packed)
      this.packed = packed
      const packable = new Uint8Array(this.packable.length * 2)
      packable.set(this.packable)
      this.packable = packable
    }
    if (!key.startsWith(KEY_PREFIX)) return
    let ok = 1
    for (let w = 0; w < PACKED_WORDS; w++) {
      let word = 0
      const from = KEY_PREFIX.length + w * PACKED_CHARS
      for (let i = from; i < from + PACKED_CHARS; i++) {
        const c = i < key.length ? key.charCodeAt(i) + 1 : 0
        if (c > 256) ok = 0
        word = word * 257 + c
      }
      this.packed[g * PACKED_WORDS + w] = word
    }
    this.packable[g] = ok
  }

  compare(a: number, b: number): number {
    if (this.packable[a] === 1 && this.packable[b] === 1) {
      for (let w = 0; w < PACKED_WORDS; w++) {
        const d = this.packed[a * PACKED_WORDS + w]! - this.packed[b * PACKED_WORDS + w]!
        if (d !== 0) return d > 0 ? 1 : -1
      }
    }
    return cmp(this.keys[a]!, this.keys[b]!)
  }
}
