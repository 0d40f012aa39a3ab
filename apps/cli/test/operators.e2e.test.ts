import { useEmulator } from '@search-layer/testkit/vitest'
import { describe, expect, it } from 'vitest'
import { emulatorEnv, run } from './_run.js'

const emu = useEmulator()

const env = () => emulatorEnv(emu.env)
const QUERY = 'async runtime "error handling" site:github.com -site:gist.github.com after:2024-06 -tokio'
const ARGS = ['--source', 'brave,tavily', '--intent', 'exploratory', '--max-queries', '1']

describe('search-layer with query operators', () => {
  it('JSON says what was parsed, sent natively, stripped and dropped; every result passes the filters', async () => {
    const r = await run([QUERY, ...ARGS, '--json'], env())
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    const out = JSON.parse(r.stdout) as {
      query: string
      results: { url: string; published_date: string | null; date_unverified?: true }[]
      operators: Record<string, unknown>
    }
    expect(out.query).toBe('async runtime error handling')
    expect(out.results.length).toBeGreaterThan(0)
    expect(out.operators).toMatchObject({
      parsed: expect.arrayContaining([{ name: 'site', value: 'github.com', raw: 'site:github.com' }]),
      filters: ['site', 'exclude-site', 'date', 'phrase', 'exclude-term'],
      native: {
        brave: ['site', 'exclude-site', 'date', 'phrase', 'exclude-term'],
        tavily: ['site', 'exclude-site', 'date'],
      },
      stripped: { brave: [], tavily: ['phrase', 'exclude-term'] },
      dropped: expect.any(Number),
    })
    expect(emu.lastRequest('brave').query.q).toBe(
      'async runtime "error handling" -tokio site:github.com -site:gist.github.com',
    )
    for (const result of out.results) {
      const host = new URL(result.url).hostname
      expect(host === 'github.com' || host.endsWith('.github.com')).toBe(true)
      expect(host).not.toBe('gist.github.com')
      if (result.published_date) expect(result.published_date.slice(0, 10) >= '2024-06-01').toBe(true)
      else expect(result.date_unverified).toBe(true)
    }
  })

  it('--explain prints the operators block under the markdown', async () => {
    const r = await run([QUERY, ...ARGS, '--format', 'markdown', '--explain'], env())
    expect(r.code).toBe(0)
    expect(r.stdout).toContain(
      '**Operators** `"error handling"` `site:github.com` `-site:gist.github.com` `after:2024-06` `-tokio`',
    )
    expect(r.stdout).toContain(
      '- native: brave (site, exclude-site, date, phrase, exclude-term) · tavily (site, exclude-site, date)',
    )
    expect(r.stdout).toContain('- stripped: tavily (phrase, exclude-term)')
    expect(r.stdout).toMatch(/- enforced: \d+ results? dropped/)
    expect(r.stdout).toContain('**Intent** exploratory, set by the caller')
    const plain = await run([QUERY, ...ARGS, '--format', 'markdown'], env())
    expect(plain.stdout).not.toContain('**Operators**')
    expect(plain.stdout).not.toContain('**Intent**')
  })

  it('--explain says the intent model classified a query the rules were unsure of', async () => {
    const UNPLACEABLE = 'zzqx vvbn'
    emu.llm.respond(() => JSON.stringify({ intent: 'factual', confidence: 0.8 }))
    const withModel = {
      ...env(),
      ...Object.fromEntries(Object.entries(emu.env).filter(([k]) => k.startsWith('SEARCH_LAYER_LLM_'))),
      SEARCH_LAYER_INTENT_LLM: 'on',
    }
    // Nonsense: neither the rules nor the learned classifier can place it, so the LLM is asked.
    const r = await run([UNPLACEABLE, '--source', 'brave', '--json'], withModel)
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout)).toMatchObject({ intent: 'factual', intent_by: 'llm' })
    const rules = await run([UNPLACEABLE, '--source', 'brave', '--format', 'markdown', '--explain'], env())
    expect(rules.stdout).toMatch(/\*\*Intent\*\* exploratory, classified by the rules \(confidence 0\.\d\d\)/)
    emu.llm.respond(null)
  })

  it.each([
    [
      'rust before:yesterdayish',
      'before:yesterdayish: "yesterdayish" is not a date; write before:YYYY, YYYY-MM or YYYY-MM-DD',
    ],
    ['rust site:', 'site: has no value: write a domain, e.g. site:example.com'],
    ['rust lang:klingonish', 'lang:klingonish: "klingonish" is not a language code'],
  ])('%s exits 2 naming the operator and what it accepts, calling no provider', async (query, message) => {
    const r = await run([query, '--json'], env())
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(message)
    expect(r.stderr).not.toMatch(/\n\s+at /)
    expect(emu.requests.filter((q) => ['brave', 'exa', 'tavily', 'grok'].includes(q.service))).toHaveLength(0)
  })
})
