import { useEmulator } from '@search-layer/testkit/vitest'
import { describe, expect, it } from 'vitest'
import { emulatorEnv, run } from './_run.js'

const emu = useEmulator()

const env = () => emulatorEnv(emu.env, { SEARCH_LAYER_KEYLESS: 'off' })

const STORY = {
  title: 'Deno 2.3 adds a stable permission broker',
  description: 'Deno 2.3 was released with a stable permission broker, faster npm installs and a new compile target.',
}
const hit = (url: string, title: string, description: string) => ({ type: 'search_result', title, url, description })
// Brave's web search shape: a wire story under three domains, then four posts from one blog, then other sites.
const BRAVE_PAGE = {
  type: 'search',
  query: { original: 'deno permission broker' },
  web: {
    type: 'search',
    results: [
      hit('https://wire-news.org/deno-2-3', STORY.title, STORY.description),
      hit(
        'https://denoblog.dev/posts/broker-intro',
        'Meet the permission broker',
        'Why Deno moved prompts out of the runtime into a broker process you can script.',
      ),
      hit('https://dailytech.net/deno-2-3', STORY.title, STORY.description),
      hit(
        'https://denoblog.dev/posts/broker-ci',
        'The broker in CI',
        'Answering permission requests from a policy file so headless CI runs never block on a prompt.',
      ),
      hit(
        'https://denoblog.dev/posts/broker-audit',
        'Auditing with the broker',
        'Every grant and denial is logged as JSON lines; we ship them to our SIEM.',
      ),
      hit(
        'https://denoblog.dev/posts/broker-vs-flags',
        'Broker or flags?',
        'When --allow-read lists are enough and when a broker earns its extra process.',
      ),
      hit('https://mirror-news.io/deno-2-3', STORY.title, STORY.description),
      hit(
        'https://docs.deno.com/runtime/permissions',
        'Security and permissions',
        'Deno is secure by default: code has no file, network or environment access unless granted.',
      ),
      hit(
        'https://github.com/denoland/deno/releases/tag/v2.3.0',
        'Release v2.3.0',
        'Changelog: permission broker stabilised, deno compile gains a new target, npm install speedups.',
      ),
      hit(
        'https://devforum.community/t/broker-windows',
        'Permission broker on Windows?',
        'Named pipes work for the broker socket; a thread with a working example.',
      ),
      hit(
        'https://conftalks.tv/deno-broker',
        'Talk: the permission broker',
        'The design goals: no prompts in servers, auditable grants, scripting in any language.',
      ),
      hit(
        'https://videohub.net/watch/deno-broker',
        'Demo: scripting the broker',
        'A ten-line Python broker that allows reads under ./data and denies everything else.',
      ),
      hit(
        'https://secadvisories.org/deno-broker',
        'Does the broker make Deno a sandbox?',
        'It narrows mistakes in trusted code; it is not a boundary against malicious code.',
      ),
    ],
  },
}

describe('search-layer --explain on ranking', () => {
  it('names the copies folded into one result and the results moved down for site diversity', async () => {
    emu.fault('brave', { reply: { body: JSON.stringify(BRAVE_PAGE) } })
    const args = [
      'deno permission broker',
      '--source',
      'brave',
      '--intent',
      'exploratory',
      '--max-queries',
      '1',
      '--num',
      '20',
    ]
    const r = await run([...args, '--format', 'markdown', '--explain'], env())
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('**Ranking**')
    expect(r.stdout).toMatch(/- near-duplicates folded: #\d+ [a-z.-]+ also at [a-z.-]+, [a-z.-]+/)
    const folded = /- near-duplicates folded: (.*)/.exec(r.stdout)![1]!
    for (const host of ['wire-news.org', 'dailytech.net', 'mirror-news.io']) expect(folded).toContain(host)
    expect(r.stdout).toMatch(/- moved down for site diversity: #\d+ denoblog\.dev \(was #\d+\)/)
    const json = JSON.parse((await run([...args, '--json', '--explain'], env())).stdout) as {
      results: { url: string; duplicates?: unknown[]; explain?: { demoted_from?: number } }[]
    }
    expect(json.results.filter((x) => x.duplicates?.length === 2)).toHaveLength(1)
    expect(json.results.some((x) => x.explain?.demoted_from !== undefined)).toBe(true)
    const plain = await run([...args, '--format', 'markdown'], env())
    expect(plain.stdout).not.toContain('**Ranking**')
  })
})
