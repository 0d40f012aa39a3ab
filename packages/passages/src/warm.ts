import { loadTokenCounter } from './_token-count.js'

/**
 * Loads the tokenizer now (≈ 0.5 s of CPU on the calling thread, once per process) so that the first
 * `findPassages` does not: a server calls it at start. Never rejects (a load failure shows on first use instead).
 */
export async function warmTokenizer(): Promise<void> {
  await loadTokenCounter().then(
    () => undefined,
    () => undefined,
  )
}
