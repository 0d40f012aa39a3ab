import { ADVERSARIAL_TEXTS, measureGrowth, LINEAR_GROWTH_LIMIT } from '@search-layer/testkit'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { terminalSafe } from './terminal-text.js'

// Every control a terminal acts on: C0 but \n and \t, DEL, C1.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/

describe('terminalSafe', { timeout: 120_000 }, () => {
  it.each([
    ['clear screen (CSI 2J)', 'a\u001b[2Jb', 'ab'],
    ['cursor home + colour', '\u001b[H\u001b[1;31mred\u001b[0m', 'red'],
    ['window title (OSC 0, BEL)', 'x\u001b]0;pwned\u0007y', 'xy'],
    ['clipboard write (OSC 52, ST)', 'x\u001b]52;c;ZWNobyBoaQ==\u001b\\y', 'xy'],
    ['hyperlink (OSC 8)', '\u001b]8;;http://e.com\u001b\\link\u001b]8;;\u001b\\', 'link'],
    ['bell', 'ding\u0007!', 'ding!'],
    ['C1 CSI', 'a\u009b2Jb', 'ab'],
    ['C1 OSC with C1 ST', 'a\u009d0;title\u009cb', 'ab'],
    ['DCS', 'a\u001bPq#0;2;0;0;0\u001b\\b', 'ab'],
    ['two-character escapes (reset, charset)', 'a\u001bcb\u001b(Bc', 'abc'],
    ['unterminated OSC stops at the newline', 'a\u001b]0;title\nnext', 'a\nnext'],
    ['lone ESC at the end', 'a\u001b', 'a'],
    ['backspace, carriage return, DEL, NUL', 'a\b\r\u007f\u0000b', 'ab'],
    ['newlines, tabs and Unicode kept', 'línea\n\tcafé 中文 😀 — “q”', 'línea\n\tcafé 中文 😀 — “q”'],
  ])('%s', (_name, input, expected) => {
    expect(terminalSafe(input)).toBe(expected)
  })

  it('leaves no control character, keeps text without any as is, and is idempotent', () => {
    const pieces = fc.constantFrom(
      '\u001b',
      '[',
      ']',
      '0;',
      '52;c;',
      '2J',
      '\u0007',
      '\\',
      '\u009b',
      '\u009c',
      '\u009d',
      '\u007f',
      '\r',
      '\n',
      '\t',
      'P',
      'a',
      ' ',
      '中',
    )
    fc.assert(
      fc.property(
        fc.array(pieces, { maxLength: 40 }).map((p) => p.join('')),
        (text) => {
          const safe = terminalSafe(text)
          expect(safe).not.toMatch(CONTROL)
          expect(terminalSafe(safe)).toBe(safe)
          if (!CONTROL.test(text)) expect(safe).toBe(text)
        },
      ),
      { numRuns: 3000 },
    )
  })

  it.each(['escape sequences', 'unterminated OSC'])('is linear on %s', (name) => {
    const growth = measureGrowth(ADVERSARIAL_TEXTS[name]!, terminalSafe, { n: 5000, retryAbove: LINEAR_GROWTH_LIMIT })
    expect(growth.ratio, JSON.stringify(growth)).toBeLessThan(LINEAR_GROWTH_LIMIT)
  })
})
