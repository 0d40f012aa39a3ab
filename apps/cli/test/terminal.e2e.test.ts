import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { useEmulator } from '@search-layer/testkit/vitest'
import { beforeAll, describe, expect, it } from 'vitest'
import { runBin } from './_run.js'

// What a page or comment can carry to drive a reader's terminal: clear screen, window title (OSC 0),
// clipboard write (OSC 52), bell, a C1 CSI, DEL and a hyperlink (OSC 8) ended by ST.
const HOSTILE =
  'A\u001b[2JB\u001b]0;pwned-title\u0007C\u001b]52;c;ZWNobyBwd25lZA==\u0007D\u0007E\u009b2JF\u007fG\u001b]8;;http://evil.example\u001b\\H'
const VISIBLE = 'ABCDEFGH'
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/

const emu = useEmulator({ resetEachTest: false })
beforeAll(async () => {
  emu.pages.set('/hostile', {
    contentType: 'text/html; charset=utf-8',
    body: `<!DOCTYPE html><html><head><title>Notes ${HOSTILE}</title></head><body><article><h1>Notes ${HOSTILE}</h1>
<p>${'A paragraph long enough for the reader view to keep this article as the main content of the page. '.repeat(4)}</p>
<p>Payload: ${HOSTILE}</p></article></body></html>`,
  })
  emu.github.addIssue({
    owner: 'evil',
    repo: 'term',
    number: 1,
    title: `Title ${HOSTILE}`,
    body: `Body ${HOSTILE} see #2`,
    comments: [{ body: `Fixes #3 ${HOSTILE}` }],
  })
})

const env = (): Record<string, string> => ({
  ...emu.env,
  HOME: mkdtempSync(join(tmpdir(), 'sl-cli-home-')),
  SEARCH_LAYER_CACHE_DIR: mkdtempSync(join(tmpdir(), 'sl-cli-cache-')),
  SEARCH_LAYER_RATE_LIMITS: 'off',
})
const ISSUE = 'https://github.com/evil/term/issues/1'

// The text around the sequences survives; where a sequence was whole, its payload goes with it. (A reference's
// context is a slice of the text that may start inside a sequence: that part then shows as plain text.)
function expectTerminalSafe(out: string, heading: string) {
  expect(out).not.toMatch(CONTROL)
  expect(out).toContain(heading)
}

describe('human output carries no terminal control sequences (built bin)', () => {
  it.each([
    ['thread', ['thread', ISSUE, '--format', 'markdown'], `# Title ${VISIBLE}\n`],
    ['thread --extract-refs-only', ['thread', ISSUE, '--extract-refs-only', '--format', 'markdown'], '### Fixes (1)'],
    ['refs', ['refs', ISSUE, '--format', 'markdown'], `## Title ${VISIBLE}\n`],
    [
      'chain',
      ['chain', ISSUE, '--query', 'title body', '--depth', '1', '--max-nodes', '2', '--format', 'markdown'],
      `Body ${VISIBLE} see #2`,
    ],
  ])('%s --format markdown', async (_name, argv, heading) => {
    const r = await runBin(argv, env())
    expect(r.code, r.stderr).toBe(0)
    expectTerminalSafe(r.stdout, heading)
  })

  it('fetch --format markdown', async () => {
    const r = await runBin(['fetch', `${emu.urls.pages}/hostile`, '--format', 'markdown'], env())
    expect(r.code, r.stderr).toBe(0)
    expectTerminalSafe(r.stdout, `# Notes ${VISIBLE}\n`)
  })

  it('search --format markdown with an LLM answer that carries them', async () => {
    emu.llm.respond(() => JSON.stringify({ answer: `WebTransport ${HOSTILE} [1].` }))
    try {
      const r = await runBin(['what is WebTransport', '--format', 'markdown'], env())
      expect(r.code, r.stderr).toBe(0)
      expectTerminalSafe(r.stdout, `WebTransport ${VISIBLE}`)
    } finally {
      emu.llm.respond(null)
    }
  })

  it('JSON output stays exact: the same strings, escaped by JSON', async () => {
    const thread = JSON.parse((await runBin(['thread', ISSUE, '--json'], env())).stdout)
    expect(thread.title).toBe(`Title ${HOSTILE}`)
    expect(thread.comments[0].body).toBe(`Fixes #3 ${HOSTILE}`)
    const page = JSON.parse((await runBin(['fetch', `${emu.urls.pages}/hostile`, '--json'], env())).stdout)
    expect(page.title).toContain('\u001b]0;pwned-title\u0007')
  })
})
