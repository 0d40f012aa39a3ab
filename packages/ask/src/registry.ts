import type { Passage } from '@search-layer/passages'

/**
 * Every passage of one ask under one numbering: each search or read numbers its own passages `p1…`, and the
 * registry gives them ids unique over the whole ask (and the conversation's earlier turns), so a citation resolves
 * to exactly one passage. The same stretch of the same page keeps its first id.
 */
export class PassageRegistry {
  readonly #byId = new Map<string, Passage>()
  readonly #byPlace = new Map<string, string>()
  #next = 1

  /** Starts with passages of earlier turns, keeping their ids. */
  constructor(earlier: readonly Passage[] = []) {
    for (const passage of earlier) {
      this.#byId.set(passage.id, passage)
      this.#byPlace.set(placeOf(passage), passage.id)
      this.#next = Math.max(this.#next, Number(passage.id.slice(1)) + 1)
    }
  }

  /** Registers passages numbered locally; returns them with their ask-wide ids, in the given order. */
  add(passages: readonly Passage[]): Passage[] {
    return passages.map((passage) => {
      const known = this.#byPlace.get(placeOf(passage))
      if (known) return this.#byId.get(known) as Passage
      const renamed = { ...passage, id: `p${this.#next++}` }
      this.#byId.set(renamed.id, renamed)
      this.#byPlace.set(placeOf(renamed), renamed.id)
      return renamed
    })
  }

  get(id: string): Passage | undefined {
    return this.#byId.get(id)
  }

  /** Every passage, in id order. */
  all(): Passage[] {
    return [...this.#byId.values()].sort((a, b) => Number(a.id.slice(1)) - Number(b.id.slice(1)))
  }
}

const placeOf = (p: Passage): string => `${p.url}\u0000${p.start}\u0000${p.end}`
