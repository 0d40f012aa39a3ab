import { createInterface } from 'node:readline'

/** Reads stdin line by line (one query per line), skipping blank lines. */
export async function* stdinLines(stdin: NodeJS.ReadableStream): AsyncGenerator<string> {
  const rl = createInterface({ input: stdin, crlfDelay: Number.POSITIVE_INFINITY })
  for await (const line of rl) {
    const trimmed = line.trim()
    if (trimmed) yield trimmed
  }
}
