// Citation markers: `[3]`, `[1, 4]`, `[1][2]`, `【2】`. Models write all of them.
const MARKER = /[[【]\s*(\d{1,4}(?:\s*[,，、]\s*\d{1,4})*)\s*[\]】]/g

/** Numbers cited inline, in order of first appearance, without duplicates. */
export function citedNumbers(text: string): number[] {
  const seen: number[] = []
  for (const m of text.matchAll(MARKER)) {
    for (const part of m[1]!.split(/[,，、]/)) {
      const n = Number(part.trim())
      if (!seen.includes(n)) seen.push(n)
    }
  }
  return seen
}

/** Rewrites every marker to keep only allowed numbers (as `[n]`), dropping markers left empty and the space before them. */
export function keepCitations(text: string, allowed: ReadonlySet<number>): string {
  return text
    .replace(/(\s*)[[【]\s*(\d{1,4}(?:\s*[,，、]\s*\d{1,4})*)\s*[\]】]/g, (_all, space: string, list: string) => {
      const kept = list
        .split(/[,，、]/)
        .map((p) => Number(p.trim()))
        .filter((n) => allowed.has(n))
      return kept.length === 0 ? '' : `${space}${kept.map((n) => `[${n}]`).join('')}`
    })
    .replace(/ +([.,;:!?。,;:!?])/g, '$1')
}

/** `[1][3]` for a list of numbers. */
export function markers(numbers: readonly number[]): string {
  return numbers.map((n) => `[${n}]`).join('')
}
