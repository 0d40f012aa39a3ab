/**
 * Whether a UTF-16 code unit is one JavaScript's `\s` matches (ASCII blanks, no-break space, the Unicode space
 * separators, line and paragraph separators, BOM): for scanners that walk text by char code instead of a regex.
 */
export function isWhitespace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d)
  if (code < 0xa0) return false
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  )
}

/** True where `/\s+/g → ' '` would change the text: a run of two spaces, or whitespace other than U+0020. */
export function hasCollapsibleSpace(text: string): boolean {
  // One regex scan: measured twice as fast as the same test as a char-code loop.
  return COLLAPSIBLE.test(text)
}

const COLLAPSIBLE = /[^\S ]| {2}/

const INLINE_SPACE = /[ \t\f\r\u00a0]+/g

/**
 * Text pieces (as an HTML reader emits them, with `\n\n` around blocks and `\n` for `<br>`) as paragraphs: blank-line
 * separated, runs of inline space (including no-break space) collapsed to one, lines trimmed, empty lines and
 * paragraphs dropped. Linear in the total length.
 */
export function joinParagraphs(parts: readonly string[]): string {
  return parts
    .join('')
    .split(/\n{2,}/)
    .map((para) =>
      para
        .split('\n')
        .map((line) => line.replace(INLINE_SPACE, ' ').trim())
        .filter((line) => line !== '')
        .join('\n'),
    )
    .filter((para) => para !== '')
    .join('\n\n')
}
