import { expect } from 'vitest'

/** A tool result's text split around its one untrusted-content frame. */
export interface Framed {
  /** Our text before the frame's markers (its preamble included). */
  before: string
  /** The third-party text between the markers. */
  inside: string
  /** Our text after the end marker. */
  after: string
}

const OPEN = /<<<page-content ([0-9a-f]{8})>>>\n/g

/**
 * Splits `content` at its untrusted-content frame, checking that there is exactly one, that its id is random (not
 * one a test planted) and that the real end marker appears once, after the opening one.
 */
export function splitFrame(content: string, planted: readonly string[] = ['00000000', 'ffffffff']): Framed {
  const opens = [...content.matchAll(OPEN)]
  expect(opens).toHaveLength(1)
  const open = opens[0]!
  const id = open[1]!
  expect(planted).not.toContain(id)
  const close = `\n<<<end page-content ${id}>>>`
  expect(content.split(close)).toHaveLength(2)
  const start = open.index + open[0].length
  const end = content.indexOf(close)
  expect(end).toBeGreaterThan(start)
  return {
    before: content.slice(0, open.index),
    inside: content.slice(start, end),
    after: content.slice(end + close.length),
  }
}

/** Checks that `text` (an injection a test planted) appears in `content` and only inside its frame. */
export function expectOnlyInside(content: string, text: string): Framed {
  const framed = splitFrame(content)
  expect(framed.inside).toContain(text)
  expect(framed.before).not.toContain(text)
  expect(framed.after).not.toContain(text)
  return framed
}
