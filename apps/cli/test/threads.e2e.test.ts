import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { useEmulator } from '@search-layer/testkit/vitest'
import { describe, expect, it } from 'vitest'
import { runBin } from './_run.js'

const emu = useEmulator({ resetEachTest: false })

const env = (extra: Record<string, string> = {}): Record<string, string> => ({
  ...emu.env,
  HOME: mkdtempSync(join(tmpdir(), 'sl-cli-home-')),
  ...extra,
})
const ISSUE = 'https://github.com/octo/demo/issues/1'

describe('thread, refs, chain and fetch (built bin, emulator)', () => {
  it('thread returns the whole issue with all comments and typed refs', async () => {
    const r = await runBin(['thread', ISSUE, '--json'], env())
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    const thread = JSON.parse(r.stdout)
    expect(thread).toMatchObject({ type: 'github_issue', url: ISSUE })
    expect(thread.comments).toHaveLength(150)
    const types = new Set(thread.refs.map((ref: { type: string }) => ref.type))
    for (const t of ['fixes', 'duplicate', 'commit', 'url']) expect(types).toContain(t)
    expect(r.stdout).not.toContain(emu.keys.github)
  })

  it('thread --max-comments cuts and says so; markdown on request', async () => {
    const r = await runBin(['thread', ISSUE, '--max-comments', '10', '--format', 'markdown'], env())
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/^# /)
    const json = JSON.parse((await runBin(['thread', ISSUE, '--max-comments', '10', '--json'], env())).stdout)
    expect(json.comments).toHaveLength(10)
    expect(JSON.stringify(json.metadata)).toMatch(/140/)
  })

  it('thread --extract-refs-only prints only references', async () => {
    const r = await runBin(['thread', ISSUE, '--extract-refs-only', '--json'], env())
    expect(r.code).toBe(0)
    const out = JSON.parse(r.stdout)
    expect(out.comments).toBeUndefined()
    expect(JSON.stringify(out)).toMatch(/"type":"(fixes|duplicate)"/)
  })

  it('a missing issue is a clear error with a non-zero exit', async () => {
    const r = await runBin(['thread', 'https://github.com/octo/demo/issues/404', '--json'], env())
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/404|not found/i)
    expect(r.stderr).not.toContain('    at ')
  })

  it('refs takes several URLs; search --extract-refs-urls gives the same', async () => {
    const urls = [ISSUE, 'https://github.com/octo/demo/pull/2']
    const r = await runBin(['refs', ...urls, '--json'], env())
    expect(r.code).toBe(0)
    const out = JSON.parse(r.stdout)
    expect(out.refs.map((x: { url: string }) => x.url)).toEqual(urls)
    const viaSearch = await runBin(['--extract-refs-urls', ...urls], env())
    expect(viaSearch.code).toBe(0)
    expect(JSON.parse(viaSearch.stdout).refs.map((x: { refs: unknown[] }) => x.refs.length)).toEqual(
      out.refs.map((x: { refs: unknown[] }) => x.refs.length),
    )
  })

  it('chain follows references breadth-first', async () => {
    const r = await runBin(
      ['chain', ISSUE, '--query', 'connection reset hang', '--depth', '1', '--max-nodes', '4', '--json'],
      env(),
    )
    expect(r.code).toBe(0)
    const chain = JSON.parse(r.stdout)
    expect(chain.nodes[0]).toMatchObject({ depth: 0 })
    expect(chain.nodes.length).toBeLessThanOrEqual(4)
    const missing = await runBin(['chain', ISSUE], env())
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('--query is required')
  })

  it('fetch prints a readable page; private addresses are refused unless allowed', async () => {
    const url = `${emu.urls.pages}/article`
    const r = await runBin(['fetch', url, '--format', 'markdown'], env())
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/^# \S/)
    const { SEARCH_LAYER_ALLOW_PRIVATE_HOSTS: _allow, ...strict } = env()
    const refused = await runBin(['fetch', url], strict)
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('SEARCH_LAYER_ALLOW_PRIVATE_HOSTS')
    const bad = await runBin(['fetch', 'file:///etc/passwd'], env())
    expect(bad.code).toBe(2)
  })
})
