/**
 * Keeps a tool's `structuredContent` within the same character budget as its text. Results are ranked, so the
 * largest list loses its last items first (never its first one); when strings are what is large (a page's
 * markdown), the longest is cut. A list is weighed without the lists inside its items, so a short list of
 * containers (`extract_refs`: one entry per URL, each with its refs) gives way inside before losing an entry.
 * What was removed is listed under `truncation`, so a client can tell a short answer from a trimmed one.
 * Deterministic: the same input and budget always give the same output. Never changes its input.
 */
import { z } from 'zod'

/** Where the structured data was cut, path → what is left (`"12 of 30 items"`, `"4,000 of 9,000 characters"`). */
export const TruncationSchema = z
  .object({
    maxChars: z.number().int().describe('The budget of the structured data (characters of JSON).'),
    removed: z
      .record(z.string(), z.string())
      .describe('Path → what is left; the path "" means the whole result was dropped (read the text instead).'),
  })
  .describe('Present when the structured data was trimmed to fit the budget.')
type StructuredTruncation = z.infer<typeof TruncationSchema>

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

interface Target {
  path: string
  size: number
  parent: Json[] | { [key: string]: Json }
  key: string | number
}

// Strings shorter than this are labels (urls, titles, kinds); cutting them loses meaning and saves little.
const MIN_CUT_STRING = 80
// Enough for any realistic trimming; a pathological value ends with the fallback instead of looping on.
const MAX_STEPS = 2_000

const size = (value: unknown): number => JSON.stringify(value)?.length ?? 0
const count = (n: number): string => n.toLocaleString('en-US')

/** The data as is when its JSON fits `maxChars`, else a trimmed copy with a `truncation` entry. */
export function fitStructured(data: Record<string, unknown>, maxChars: number): Record<string, unknown> {
  if (size(data) <= maxChars) return data
  const copy = JSON.parse(JSON.stringify(data)) as { [key: string]: Json }
  const truncation: StructuredTruncation = { maxChars, removed: {} }
  const originalLengths = new Map<string, number>()
  const withNote = () => ({ ...copy, truncation })
  for (let step = 0; step < MAX_STEPS; step++) {
    const overflow = size(withNote()) - maxChars
    if (overflow <= 0) return withNote()
    const target = largestTarget(copy)
    if (!target) break
    const value = (target.parent as Record<string | number, Json>)[target.key]
    if (Array.isArray(value)) {
      if (!originalLengths.has(target.path)) originalLengths.set(target.path, value.length)
      dropTail(value, overflow)
      truncation.removed[target.path] = `${count(value.length)} of ${count(originalLengths.get(target.path)!)} items`
    } else if (typeof value === 'string') {
      if (!originalLengths.has(target.path)) originalLengths.set(target.path, value.length)
      const keep = Math.max(0, value.length - overflow - 1)
      ;(target.parent as Record<string | number, Json>)[target.key] = `${value.slice(0, keep)}…`
      truncation.removed[target.path] = `${count(keep)} of ${count(originalLengths.get(target.path)!)} characters`
    }
  }
  // Nothing left to trim (a huge object of short fields): say so rather than exceed the budget.
  return { truncation: { maxChars, removed: { '': 'the whole result; read the text content instead' } } }
}

// Removes items from the end until about `overflow` characters are gone (one step usually suffices); keeps the first.
function dropTail(list: Json[], overflow: number): void {
  let removed = 0
  while (list.length > 1 && removed < overflow) removed += size(list.pop()) + 1
}

// The characters of the lists inside a value (not counting the value's own fields).
function nestedListSize(value: Json): number {
  if (Array.isArray(value)) return size(value)
  if (value !== null && typeof value === 'object') {
    let total = 0
    for (const v of Object.values(value)) total += nestedListSize(v)
    return total
  }
  return 0
}

// The heaviest list of two or more items (weighed without the lists inside its items) or longest string anywhere
// in the value; the first one found wins a tie.
function largestTarget(root: { [key: string]: Json }): Target | undefined {
  let best: Target | undefined
  const visit = (value: Json, path: string, parent: Target['parent'], key: string | number) => {
    if (Array.isArray(value)) {
      if (value.length > 1) {
        let own = size(value)
        for (const item of value) own -= nestedListSize(item)
        if (!best || own > best.size) best = { path, size: own, parent, key }
      }
      for (const [i, item] of value.entries()) visit(item, `${path}[${i}]`, value, i)
    } else if (typeof value === 'string') {
      if (value.length >= MIN_CUT_STRING && (!best || value.length > best.size))
        best = { path, size: value.length, parent, key }
    } else if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) visit(v, path ? `${path}.${k}` : k, value, k)
    }
  }
  for (const [k, v] of Object.entries(root)) visit(v, k, root, k)
  return best
}
