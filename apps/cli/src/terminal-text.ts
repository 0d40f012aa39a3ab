// Pages, threads and LLM answers are written by others; printed raw, their control characters would drive the
// reader's terminal (clear the screen, set the window title, write the clipboard through OSC 52). Human output
// goes through `terminalSafe`; JSON output does not need it (JSON escapes C0, and its strings must stay exact).

const ESC = 0x1b
const BEL = 0x07
const CSI_C1 = 0x9b
const ST_C1 = 0x9c
// Introducers of control strings, which run to a string terminator: OSC, DCS, SOS, PM, APC.
const STRING_AFTER_ESC = new Set([0x5d, 0x50, 0x58, 0x5e, 0x5f]) // ] P X ^ _
const STRING_C1 = new Set([0x9d, 0x90, 0x98, 0x9e, 0x9f])

function isControl(code: number): boolean {
  return (code < 0x20 && code !== 0x0a && code !== 0x09) || (code >= 0x7f && code <= 0x9f)
}

/**
 * `text` without what a terminal would act on: escape sequences (CSI, OSC, DCS, SOS, PM, APC and two-character
 * ones) whole, the C1 forms of the same, and every other C0 control but newline and tab, DEL and C1 control.
 * One pass: a sequence's payload ends at its terminator or at the first control character, so an unterminated
 * one never makes the scan re-read the text.
 */
export function terminalSafe(text: string): string {
  let out = ''
  let kept = 0
  let i = 0
  const n = text.length
  while (i < n) {
    const code = text.charCodeAt(i)
    if (!isControl(code)) {
      i++
      continue
    }
    out += text.slice(kept, i)
    i = sequenceEnd(text, i)
    kept = i
  }
  return kept === 0 ? text : out + text.slice(kept)
}

/** Where the control sequence starting at `at` ends (exclusive). */
function sequenceEnd(text: string, at: number): number {
  const code = text.charCodeAt(at)
  if (code === CSI_C1) return csiEnd(text, at + 1)
  if (STRING_C1.has(code)) return controlStringEnd(text, at + 1)
  if (code !== ESC) return at + 1
  const next = text.charCodeAt(at + 1)
  if (next === 0x5b) return csiEnd(text, at + 2) // ESC [
  if (STRING_AFTER_ESC.has(next)) return controlStringEnd(text, at + 2)
  // ESC, intermediates (0x20–0x2F), one final character (0x30–0x7E): ESC c, ESC 7, ESC ( B …
  let i = at + 1
  while (i < text.length && text.charCodeAt(i) >= 0x20 && text.charCodeAt(i) <= 0x2f) i++
  const final = text.charCodeAt(i)
  return final >= 0x30 && final <= 0x7e ? i + 1 : i
}

/** A CSI's parameters and intermediates (0x20–0x3F) and its final character (0x40–0x7E). */
function csiEnd(text: string, from: number): number {
  let i = from
  while (i < text.length && text.charCodeAt(i) >= 0x20 && text.charCodeAt(i) <= 0x3f) i++
  const final = text.charCodeAt(i)
  return final >= 0x40 && final <= 0x7e ? i + 1 : i
}

/** An OSC/DCS/… payload up to BEL or ST (ESC \ or 0x9C), which are dropped with it; stops before any other control. */
function controlStringEnd(text: string, from: number): number {
  let i = from
  while (i < text.length) {
    const code = text.charCodeAt(i)
    if (code === BEL || code === ST_C1) return i + 1
    if (code === ESC) return text.charCodeAt(i + 1) === 0x5c ? i + 2 : i
    // Newline and tab too: an unterminated string must not swallow the lines after it.
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return i
    i++
  }
  return i
}
