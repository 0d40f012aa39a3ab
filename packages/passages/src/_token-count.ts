// Tokens are counted with gpt-tokenizer's o200k_base encoding (GPT-4o and later), loaded on first use:
// its rank table is about 2 MB of JavaScript that a process which never selects passages should not parse.

/** Tokens in `text` when at most `limit`, else `false` (stops counting at the limit). */
export type TokenCounter = (text: string, limit: number) => number | false

let loading: Promise<TokenCounter> | undefined

/** The shared token counter, loaded once per process. */
export function loadTokenCounter(): Promise<TokenCounter> {
  loading ??= import('gpt-tokenizer/encoding/o200k_base').then(
    (encoding): TokenCounter =>
      (text, limit) =>
        encoding.isWithinTokenLimit(text, limit),
  )
  return loading
}
