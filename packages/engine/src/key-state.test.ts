import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { createFileKeyStateStore } from './key-state.js'

// Counts reads of the state file; everything else is the real file system.
const reads = vi.hoisted(() => ({ count: 0 }))
vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs/promises')>()
  return {
    ...fs,
    readFile: (...args: Parameters<typeof fs.readFile>) => {
      reads.count++
      return fs.readFile(...args)
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
})
