import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pino from 'pino'
import { afterEach, describe, expect, it } from 'vitest'
import { type HistoryEntry, createHistoryStore } from './_history.js'
import { createSharedState } from './_shared-state.js'

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
  const state = createSharedState({ prefix: 'test:', timeoutMs: 100, logger: pino({ level: 'silent' }) })
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

  it('appends entries that arrive together in one batch, in arrival order', async () => {
    const root = tempRoot()
    const store = storeIn(join(root, 'history.jsonl'))
    await Promise.all(['a', 'b', 'c', 'd'].map((q) => store.add(entry(q))))
    expect((await store.list('alice', 10)).map((e) => e.query)).toEqual(['d', 'c', 'b', 'a'])
  })

  it('still fails loudly on errors other than a missing directory', async () => {
    const root = tempRoot()
    // The "file" is a directory: appending fails with EISDIR, which must not be mistaken for a missing directory.
    const store = storeIn(root)
    await expect(store.add(entry('x'))).rejects.toMatchObject({ code: 'EISDIR' })
  })
})
