import { describe, expect, it } from 'vitest'
import { colourTerminal } from './terminal-colour.js'
import { renderTerminalMarkdown } from './terminal-markdown.js'

const BOLD = '\u001b[1m'
const ITALIC = '\u001b[3m'
const UNDERLINE = '\u001b[4m'
const SGR = /\u001b\[[0-9;]*m/g
const plain = (s: string) => s.replace(SGR, '')

describe('renderTerminalMarkdown', () => {
  it('renders bold, emphasis, code and links, also inside list items', () => {
    const out = renderTerminalMarkdown(
      [
        '**Bun** is _faster_ at start-up [1].',
        '',
        '1. [Bun docs](https://bun.sh/docs) — a **fast** runtime `[brave, exa]` ⭐0.91',
        '2. [Deno \\[2\\]](https://deno.com) — secure by default',
        '',
        '- [1] [Benchmarks](https://example.com/bench)',
      ].join('\n'),
    )
    expect(out).toContain(`${BOLD}Bun`)
    expect(out).toContain(`${ITALIC}faster`)
    // Inside a list item too (where marked-terminal 7.3 leaves `**` as written).
    expect(out).toContain(`${BOLD}fast`)
    expect(out).toContain(UNDERLINE)
    expect(out).not.toContain('**')
    expect(plain(out)).toBe(
      [
        'Bun is faster at start-up [1].',
        '',
        '1. Bun docs https://bun.sh/docs — a fast runtime [brave, exa] ⭐0.91',
        '2. Deno [2] https://deno.com — secure by default',
        '',
        '• [1] Benchmarks https://example.com/bench',
        '',
      ].join('\n'),
    )
  })

  it('renders headings, quotes, nested lists and code blocks', () => {
    const out = renderTerminalMarkdown(
      '## Sources\n\n> Sources differ on speed\n\n- one\n  - nested **two**\n\n```js\nconst a = 1\n```\n',
    )
    expect(out).toContain(`${BOLD}${UNDERLINE}Sources`)
    expect(plain(out)).toBe('Sources\n\n│ Sources differ on speed\n\n• one\n  • nested two\n\n    const a = 1\n')
  })

  it('never turns character references into control characters', () => {
    const out = renderTerminalMarkdown('a &#27;[2J b &#x9b;2J [x&#7;](http://a/&#27;) `&#27;`')
    expect(out.replace(SGR, '')).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/)
  })

  it('shows a bare URL link once', () => {
    expect(plain(renderTerminalMarkdown('<https://a.example/x>'))).toBe('https://a.example/x\n')
  })
})

describe('colourTerminal', () => {
  it('is a TTY without NO_COLOR and not TERM=dumb', () => {
    expect(colourTerminal({ isTTY: true }, { TERM: 'xterm-256color' })).toBe(true)
    expect(colourTerminal({ isTTY: false }, {})).toBe(false)
    expect(colourTerminal({}, {})).toBe(false)
    expect(colourTerminal({ isTTY: true }, { NO_COLOR: '1' })).toBe(false)
    expect(colourTerminal({ isTTY: true }, { NO_COLOR: '' })).toBe(true)
    expect(colourTerminal({ isTTY: true }, { TERM: 'dumb' })).toBe(false)
  })
})
