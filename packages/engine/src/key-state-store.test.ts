import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { createFileKeyStateStore, createOneShotKeyStateStore } from './key-state-store.js'

// Counts reads of a state file (each opens it; the writes open temp files) and writes (each ends in a rename);
// everything else is the real file system.
const reads = vi.hoisted(() => ({ count: 0 }))
const renames = vi.hoisted(() => ({ count: 0 }))
vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs/promises')>()
  return {
    ...fs,
    open: (...args: Parameters<typeof fs.open>) => {
      if (String(args[0]).endsWith('key-state.json')) reads.count++
      return fs.open(...args)
    },
    rename: (...args: Parameters<typeof fs.rename>) => {
      renames.count++
      return fs.rename(...args)
    },
  }
})

const NOW = Date.now()
const limits = (perSecond: number) => ({ limits: { learnedAt: NOW, perSecond } })

describe('createFileKeyStateStore', () => {
  it('serves reads that start together from one read of the file, and later reads see later writes', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'sl-key-state-')), 'key-state.json')
    writeFileSync(file, JSON.stringify({ 'brave:aaa': limits(1), 'exa:bbb': limits(5) }))
    const store = createFileKeyStateStore({ file })
    reads.count = 0
    const states = await Promise.all([
      store.get('brave', 'aaa'),
      store.get('exa', 'bbb'),
      store.get('tavily', 'ccc'),
      store.get('brave', 'aaa'),
    ])
    expect(states).toEqual([limits(1), limits(5), undefined, limits(1)])
    expect(reads.count).toBe(1)

    await store.set('brave', 'aaa', limits(20))
    expect(await store.get('brave', 'aaa')).toEqual(limits(20))
  })

  it('writes states set while a write is under way together, in one write, keeping what other processes wrote', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'sl-key-state-')), 'key-state.json')
    writeFileSync(file, JSON.stringify({ 'bocha:zzz': limits(2) }))
    const store = createFileKeyStateStore({ file })
    renames.count = 0
    await Promise.all([store.set('brave', 'aaa', limits(1)), store.set('exa', 'bbb', limits(5))])
    expect(renames.count).toBe(1)

    renames.count = 0
    const first = store.set('brave', 'aaa', limits(20))
    // The first write is under way (its read of the file at least) when the next three come.
    await new Promise((resolve) => setImmediate(resolve))
    const later = [
      store.set('exa', 'bbb', limits(10)),
      store.set('tavily', 'ccc', limits(3)),
      store.set('exa', 'bbb', limits(11)),
    ]
    await Promise.all([first, ...later])
    expect(renames.count).toBe(2)
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      'bocha:zzz': limits(2),
      'brave:aaa': limits(20),
      'exa:bbb': limits(11),
      'tavily:ccc': limits(3),
    })
  })
})

describe('createOneShotKeyStateStore', () => {
  it('reads the file once, keeps what it is told in memory, and writes it all on save, merged with other writers', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'sl-key-state-')), 'key-state.json')
    writeFileSync(file, JSON.stringify({ 'brave:aaa': limits(1), 'exa:bbb': limits(5), 'old:ccc': { restUntil: 1 } }))
    const store = createOneShotKeyStateStore({ file })
    expect(await store.get('brave', 'aaa')).toEqual(limits(1))
    await store.set('brave', 'aaa', limits(20))
    await store.set('tavily', 'ddd', limits(3))
    expect(await store.get('brave', 'aaa')).toEqual(limits(20))
    // Nothing on disk yet; meanwhile another process writes a key of its own.
    expect(JSON.parse(readFileSync(file, 'utf8'))['brave:aaa']).toEqual(limits(1))
    writeFileSync(file, JSON.stringify({ 'exa:bbb': limits(6), 'bocha:zzz': limits(2), 'old:ccc': { restUntil: 1 } }))

    store.save()
    // Ours over theirs, theirs kept, and a state nobody refreshed in forty days dropped.
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      'exa:bbb': limits(6),
      'bocha:zzz': limits(2),
      'brave:aaa': limits(20),
      'tavily:ddd': limits(3),
    })
    expect(statSync(file).mode & 0o777).toBe(0o600)
  })

  it('treats a missing or malformed file as empty, and a save that cannot write loses only the hints', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sl-key-state-'))
    const malformed = join(dir, 'key-state.json')
    writeFileSync(malformed, '{ not json')
    const store = createOneShotKeyStateStore({ file: malformed })
    expect(await store.get('brave', 'aaa')).toBeUndefined()
    await store.set('brave', 'aaa', limits(4))
    store.save()
    expect(JSON.parse(readFileSync(malformed, 'utf8'))).toEqual({ 'brave:aaa': limits(4) })

    // A plain file where the directory should be: nothing can be written below it.
    const blocked = join(dir, 'not-a-dir')
    writeFileSync(blocked, '')
    const unwritable = createOneShotKeyStateStore({ file: join(blocked, 'key-state.json') })
    expect(await unwritable.get('brave', 'aaa')).toBeUndefined()
    await unwritable.set('brave', 'aaa', limits(4))
    expect(() => unwritable.save()).not.toThrow()
  })
})

describe('stored latency that cannot be trusted', () => {
  const samples = (n: number) => Array.from({ length: n }, (_, i) => ({ ms: 100 + i }))
  const latency = (list: unknown) => ({ latency: { updatedAt: NOW, samples: list } })

  it('drops bad or oversized samples alone, keeps the key’s limits, and says so once', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'sl-key-state-')), 'key-state.json')
    writeFileSync(
      file,
      JSON.stringify({
        'brave:aaa': { ...limits(1), ...latency(samples(65)) },
        'exa:bbb': { ...limits(5), ...latency([{ ms: -3 }]) },
        'tavily:ccc': latency(samples(64)),
        'grok:ddd': { limits: 'fast' },
      }),
    )
    const told: string[] = []
    const store = createOneShotKeyStateStore({ file, log: (message) => told.push(message) })
    expect(await store.get('brave', 'aaa')).toEqual(limits(1))
    expect(await store.get('exa', 'bbb')).toEqual(limits(5))
    expect((await store.get('tavily', 'ccc'))?.latency?.samples).toHaveLength(64)
    expect(await store.get('grok', 'ddd')).toBeUndefined()
    expect(told).toEqual([
      expect.stringMatching(/entry "brave:aaa": latency samples ignored \(latency\.samples: .*64/),
      expect.stringMatching(/entry "exa:bbb": latency samples ignored \(latency\.samples\.0\.ms: /),
      expect.stringMatching(/entry "grok:ddd" ignored \(limits: /),
    ])
    expect(told[0]).toContain(file)

    // The file store reads it at every search: each problem is still told once.
    const fileTold: string[] = []
    const shared = createFileKeyStateStore({ file, log: (message) => fileTold.push(message) })
    await shared.get('brave', 'aaa')
    await shared.get('brave', 'aaa')
    expect(fileTold).toHaveLength(3)
  })

  it.runIf(process.platform !== 'win32')(
    "ignores a pipe or an oversized file in the file's place with a warning, in both stores",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'sl-key-state-'))
      const pipe = join(dir, 'pipe.json')
      execFileSync('mkfifo', [pipe]) // no writer: an unbounded read would wait for ever
      const big = join(dir, 'big.json')
      writeFileSync(big, `{"brave:aaa": ${JSON.stringify(limits(1))}, "pad": "${'x'.repeat(4 * 1024 * 1024)}"}`)
      const told: string[] = []
      const log = (message: string) => told.push(message)
      for (const file of [pipe, big]) {
        expect(await createOneShotKeyStateStore({ file, log }).get('brave', 'aaa')).toBeUndefined()
        expect(await createFileKeyStateStore({ file, log }).get('brave', 'aaa')).toBeUndefined()
      }
      expect(told).toEqual([
        `key-state file ${pipe} ignored: not a regular file`,
        `key-state file ${pipe} ignored: not a regular file`,
        `key-state file ${big} ignored: larger than 4 MiB`,
        `key-state file ${big} ignored: larger than 4 MiB`,
      ])
    },
  )

  it('tells of a file that is not JSON, and not of one that is not there', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sl-key-state-'))
    const told: string[] = []
    const log = (message: string) => told.push(message)
    await createOneShotKeyStateStore({ file: join(dir, 'none.json'), log }).get('brave', 'aaa')
    expect(told).toEqual([])
    writeFileSync(join(dir, 'bad.json'), '{ not json')
    await createOneShotKeyStateStore({ file: join(dir, 'bad.json'), log }).get('brave', 'aaa')
    expect(told).toEqual([expect.stringMatching(/key-state file .*bad\.json ignored: .*JSON/)])
  })
})
