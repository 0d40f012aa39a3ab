import { chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pino from 'pino'
import { afterEach, describe, expect, it } from 'vitest'
import { createHistoryStore } from './history-store.js'
import type { HistoryEntry } from './schemas.js'
import { createGuardedRedis } from './guarded-redis.js'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

const entry = (query: string, who = 'alice'): HistoryEntry => ({
  query,
  intent: 'factual',
  mode: 'fast',
  when: '2026-11-22T12:00:00.000Z',
  count: 3,
  cached: false,
  who,
})

function tempRoot(): string {
  const root = mkdtempSync(join(tmpdir(), 'sl-history-'))
  dirs.push(root)
  return root
}

function storeIn(file: string, max = 100) {
  const state = createGuardedRedis({ prefix: 'test:', timeoutMs: 100, logger: pino({ level: 'silent' }) })
  return createHistoryStore(state, { file, max })
}

describe('history file (no Redis)', () => {
  it('creates the data directory on the first add, and again if it is removed while the server runs', async () => {
    const root = tempRoot()
    const file = join(root, 'nested', 'data', 'history.jsonl')
    const store = storeIn(file)
    await store.add(entry('first'))
    rmSync(join(root, 'nested'), { recursive: true })
    await store.add(entry('second'))
    await store.add(entry('third', 'bob'))
    expect(
      readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).query),
    ).toEqual(['second', 'third'])
    expect((await store.list('alice', 10)).map((e) => e.query)).toEqual(['second'])
  })

  it('stores a query without URL credentials or pasted keys, in the file and in what it lists', async () => {
    const root = tempRoot()
    const file = join(root, 'history.jsonl')
    const store = storeIn(file)
    await store.add(entry('https://user:pass@host.example/x'))
    await store.add(entry('why does ?api_key=abcdef123456 fail'))
    const listed = (await store.list('alice', 10)).map((e) => e.query)
    expect(listed).toEqual(['why does ?api_key=[redacted] fail', 'https://host.example/x'])
    expect(readFileSync(file, 'utf8')).not.toMatch(/user|pass@|abcdef123456/)
  })

  it('appends entries that arrive together in one batch, in arrival order', async () => {
    const root = tempRoot()
    const store = storeIn(join(root, 'history.jsonl'))
    await Promise.all(['a', 'b', 'c', 'd'].map((q) => store.add(entry(q))))
    expect((await store.list('alice', 10)).map((e) => e.query)).toEqual(['d', 'c', 'b', 'a'])
  })

  it('creates the file 0600 and its directories 0700; compaction and clear keep it 0600', async () => {
    const root = tempRoot()
    const file = join(root, 'new', 'data', 'history.jsonl')
    const store = storeIn(file, 2)
    await store.add(entry('first'))
    expect(modeOf(file)).toBe(0o600)
    expect(modeOf(join(root, 'new', 'data'))).toBe(0o700)
    expect(modeOf(join(root, 'new'))).toBe(0o700)
    for (const q of ['second', 'third']) await store.add(entry(q)) // the second append of a full client compacts
    expect((await store.list('alice', 10)).map((e) => e.query)).toEqual(['third', 'second'])
    expect(modeOf(file)).toBe(0o600)
    await store.clear('alice')
    expect(modeOf(file)).toBe(0o600)
    expect(readdirSync(join(root, 'new', 'data'))).toEqual(['history.jsonl'])
  })

  it('never widens an existing directory or file', async () => {
    const root = tempRoot()
    chmodSync(root, 0o750)
    const file = join(root, 'history.jsonl')
    const store = storeIn(file)
    await store.add(entry('first'))
    chmodSync(file, 0o640)
    await store.add(entry('second'))
    expect(modeOf(root)).toBe(0o750)
    expect(modeOf(file)).toBe(0o640)
  })

  it('still fails loudly on errors other than a missing directory', async () => {
    const root = tempRoot()
    // The "file" is a directory: appending fails with EISDIR, which must not be mistaken for a missing directory.
    const store = storeIn(root)
    await expect(store.add(entry('x'))).rejects.toMatchObject({ code: 'EISDIR' })
  })
})

const modeOf = (path: string) => statSync(path).mode & 0o777

describe('history remove', () => {
  it("forgets one of the caller's entries by its time, and nobody else's", async () => {
    const store = storeIn(join(tempRoot(), 'history.jsonl'))
    await store.add({ ...entry('keep'), when: '2026-11-22T12:00:00.000Z' })
    await store.add({ ...entry('drop'), when: '2026-11-22T12:05:00.000Z' })
    await store.add({ ...entry('other', 'bob'), when: '2026-11-22T12:05:00.000Z' })
    expect(await store.remove('alice', '2026-11-22T12:05:00.000Z')).toBe(1)
    expect((await store.list('alice', 10)).map((e) => e.query)).toEqual(['keep'])
    expect((await store.list('bob', 10)).map((e) => e.query)).toEqual(['other'])
    expect(await store.remove('alice', '2026-11-22T13:00:00.000Z')).toBe(0)
  })
})
