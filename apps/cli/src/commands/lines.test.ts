import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { stdinLines } from './lines.js'

const collect = async (chunks: Iterable<string> | AsyncIterable<string>, maxChars?: number) => {
  const out = []
  for await (const line of stdinLines(Readable.from(chunks), maxChars)) out.push(line)
  return out
}

describe('stdinLines', () => {
  it('yields each query trimmed, in order, across chunk boundaries, skipping blank lines and CRLF ends', async () => {
    expect(await collect(['Bun vs', ' Deno\r\n\n  Rust 异步', '编程 \nlast'])).toEqual([
      { query: 'Bun vs Deno' },
      { query: 'Rust 异步编程' },
      { query: 'last' },
    ])
  })

  it('numbers a line over the bound in its place (blank lines counted) and goes on', async () => {
    expect(await collect(['ok\n\n', 'x'.repeat(11), '\nafter\n'], 10)).toEqual([
      { query: 'ok' },
      { tooLong: 3 },
      { query: 'after' },
    ])
    expect(await collect([`${' '.repeat(20)}short${' '.repeat(20)}\n`], 10)).toEqual([{ query: 'short' }])
  })

  it('holds a line of white space no more than any other: it ends blank, and skipped', async () => {
    let sent = 0
    async function* spaces() {
      for (; sent < 256; sent++) yield ' '.repeat(64 * 1024)
    }
    expect(await collect(spaces(), 2000)).toEqual([])
    expect(await collect([`${' '.repeat(10_000)}query${' '.repeat(500)}\n`], 2000)).toEqual([{ query: 'query' }])
    expect(await collect([`query${' '.repeat(5000)}\nnext\n`], 2000)).toEqual([{ tooLong: 1 }, { query: 'next' }])
  })

  it('reads a stream without a newline to its end as one line too long (a pipe from /dev/zero)', async () => {
    let sent = 0
    async function* endless() {
      // 64 MiB in 64 KiB chunks: held whole, the string alone would be 64 MiB.
      for (; sent < 1024; sent++) yield 'a'.repeat(64 * 1024)
    }
    expect(await collect(endless(), 2000)).toEqual([{ tooLong: 1 }])
    expect(sent).toBe(1024)
  })
})
