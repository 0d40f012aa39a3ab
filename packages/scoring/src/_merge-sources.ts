import { cmp } from './_merge-occurrences.js'
import type { ResultBatch } from './_merge-types.js'

/** The order of `sources`: the listed providers first, then any other provider in the batches alphabetically. */
export function providerOrderOf(batches: readonly ResultBatch[], listed: readonly string[] = []): string[] {
  const order = [...new Set(listed)]
  const known = new Set(order)
  const others: string[] = []
  for (const batch of batches) {
    const provider = batch !== null && typeof batch === 'object' ? batch.provider : undefined
    if (typeof provider === 'string' && !known.has(provider)) {
      known.add(provider)
      others.push(provider)
    }
  }
  return order.concat(others.sort(cmp))
}

/**
 * `sources.join(", ")` per set of providers (bit p for `order[p]`), per provider order: a few strings, shared by
 * every merge with that order. Past 30 providers the mask no longer fits, and the text is joined every time.
 */
const SOURCE_TEXTS = new Map<string, string[]>()

export function sourceTextsFor(order: readonly string[]): string[] | undefined {
  if (order.length > 30) return undefined
  const key = order.join('\u0000')
  let texts = SOURCE_TEXTS.get(key)
  if (!texts) {
    if (SOURCE_TEXTS.size >= 64) SOURCE_TEXTS.clear()
    texts = []
    SOURCE_TEXTS.set(key, texts)
  }
  return texts
}

export function sourceText(texts: string[] | undefined, mask: number, sources: readonly string[]): string {
  if (!texts) return sources.join(', ')
  let text = texts[mask]
  if (text === undefined) {
    text = sources.join(', ')
    texts[mask] = text
  }
  return text
}
