import { useEmulator } from '@search-layer/testkit/vitest'
import { beforeAll, describe, expect, it } from 'vitest'
import { type ChainGate, chainToMarkdown, createLlmChainGate, followChain, scoreRef } from './index.js'

const emu = useEmulator()
const query = 'client hangs when the server resets the connection'
const seed = 'https://github.com/octo/chain/issues/1'

beforeAll(async () => {
  emu.github.addIssue({
    owner: 'octo',
    repo: 'chain',
    number: 1,
    title: 'Client hangs after a connection reset',
    body: 'The client hangs forever when the server resets the connection.\n\nDuplicate of #2.\n\nUnrelated: the logo colours are off, see #3 and https://example.com/branding.',
    comments: 0,
  })
  emu.github.addIssue({
    owner: 'octo',
    repo: 'chain',
    number: 2,
    title: 'Hang on connection reset mid-response',
    body: 'Original report. The server resets the connection and the client hangs. Related to #4 (reset handling).',
    comments: [{ body: 'Still hangs for me, see #1 which is the same.' }],
  })
  emu.github.addIssue({
    owner: 'octo',
    repo: 'chain',
    number: 3,
    title: 'Logo colours',
    body: 'The logo is too pink.',
    comments: 0,
  })
  emu.github.addIssue({
    owner: 'octo',
    repo: 'chain',
    number: 4,
    title: 'Handle connection resets',
    body: 'Retry when the server resets the connection. Closes #2. Also see #404.',
    isPull: true,
    merged: true,
    comments: 0,
  })
  emu.github.addIssue({ owner: 'octo', repo: 'chain', number: 404, title: 'gone', gone: 404 })
})

const base = () => ({ query, env: emu.env, maxPerNode: 1 })

describe('followChain', () => {
  it('walks breadth-first through the most relevant reference of each thread, never revisiting', async () => {
    const chain = await followChain([seed], base())
    expect(chain.nodes.map((n) => [n.url, n.depth, n.reason.by, n.reason.type])).toEqual([
      [seed, 0, 'seed', undefined],
      ['https://github.com/octo/chain/issues/2', 1, 'score', 'duplicate'],
      ['https://github.com/octo/chain/pull/4', 2, 'score', 'related'],
      ['https://github.com/octo/chain/issues/404', 3, 'score', 'issue'],
    ])
    expect(chain.nodes[1]).toMatchObject({
      parent: seed,
      title: 'Hang on connection reset mid-response',
      state: 'open',
    })
    expect(chain.nodes[2]).toMatchObject({ type: 'github_pr', state: 'merged' })
    expect(chain.nodes[3]!.error).toMatchObject({ kind: 'upstream', code: 'not_found', status: 404 })
    expect(chain.stopped).toBeUndefined()
    expect(chainToMarkdown(chain)).toContain('## Depth 2')
  })

  it('honours maxDepth, maxNodes and the visited set across seeds', async () => {
    const shallow = await followChain([seed, 'https://github.com/octo/chain/issues/1#top'], { ...base(), maxDepth: 1 })
    expect(shallow.nodes.map((n) => n.depth)).toEqual([0, 1])
    const capped = await followChain([seed], { ...base(), maxPerNode: 3, maxNodes: 2 })
    expect(capped.nodes).toHaveLength(2)
    expect(capped.stopped).toBe('max_nodes')
  })

  it('fetches the threads of one depth in parallel', async () => {
    emu.latency('github', 40)
    const chain = await followChain([seed], { ...base(), maxPerNode: 3, maxDepth: 1 })
    expect(chain.nodes.filter((n) => n.depth === 1).map((n) => n.url)).toEqual(
      expect.arrayContaining(['https://github.com/octo/chain/issues/2', 'https://github.com/octo/chain/issues/3']),
    )
    expect(emu.maxInFlight('github')).toBeGreaterThan(1)
  })

  it('stops at the deadline', async () => {
    emu.latency('github', 300)
    const chain = await followChain([seed], { ...base(), deadlineMs: 500 })
    expect(chain.stopped).toBe('deadline')
    expect(chain.stats.ms).toBeLessThan(2_000)
  })

  it('lets an LLM gate pick, and says so', async () => {
    const gate: ChainGate = async ({ candidates }) =>
      candidates.filter((c) => c.url.endsWith('/issues/3')).map((c) => c.url)
    const chain = await followChain([seed], { ...base(), maxDepth: 1, llm: gate })
    expect(chain.nodes[1]).toMatchObject({ url: 'https://github.com/octo/chain/issues/3', reason: { by: 'llm' } })
    expect(chain.stats).toMatchObject({ gateCalls: 1, gateFailures: 0 })
  })

  it.each<[string, ChainGate]>([
    ['throws', async () => Promise.reject(new Error('llm down'))],
    ['picks a URL that is not a candidate', async () => ['https://evil.example/everything']],
    ['returns garbage', async () => 'follow everything' as unknown as string[]],
    ['never answers', () => new Promise<string[]>(() => {})],
  ])('fails closed to the built-in score when the gate %s', async (_name, gate) => {
    const chain = await followChain([seed], { ...base(), maxDepth: 1, llm: gate, llmTimeoutMs: 200 })
    expect(chain.nodes.map((n) => [n.url, n.reason.by])).toEqual([
      [seed, 'seed'],
      ['https://github.com/octo/chain/issues/2', 'score'],
    ])
    expect(chain.stats.gateFailures).toBe(1)
  })

  it('works with the OpenAI-compatible gate against the emulator LLM', async () => {
    emu.llm.respond(() => '```json\n{"follow": [0]}\n```')
    const gate = createLlmChainGate({ env: emu.env })
    expect(gate).toBeDefined()
    const chain = await followChain([seed], { ...base(), maxDepth: 1, llm: gate })
    expect(chain.nodes[1]!.reason.by).toBe('llm')
    expect(emu.count('llm')).toBe(1)
    expect(createLlmChainGate({ env: {} })).toBeUndefined()
    emu.llm.respond(null)
  })
})

describe('scoreRef', () => {
  it.each([
    [
      'a duplicate beats a plain issue',
      { type: 'duplicate', text: '#2', context: 'x' },
      { type: 'issue', text: '#3', context: 'x' },
    ],
    [
      'query overlap beats none',
      { type: 'url', text: 'connection reset guide', context: '' },
      { type: 'url', text: 'cats', context: '' },
    ],
    [
      'same repository beats another',
      { type: 'issue', text: '#2', context: '', repo: 'o/r' },
      { type: 'issue', text: 'x/y#2', context: '', repo: 'x/y' },
    ],
    [
      'CJK bigrams overlap',
      { type: 'url', text: '连接重置导致挂起', context: '' },
      { type: 'url', text: '图标颜色', context: '' },
    ],
  ] as const)('%s', (_name, better, worse) => {
    const q = _name.startsWith('CJK') ? '连接重置' : query
    expect(scoreRef(better, q, 'o/r')).toBeGreaterThan(scoreRef(worse, q, 'o/r'))
  })
})
