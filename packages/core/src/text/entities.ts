/**
 * The named character references vendors and pages actually send. Unknown names stay as written: a full HTML5
 * table (2,000+ names, legacy forms without `;`) would decode `&copy=2` in a query string and change text no
 * vendor meant as markup.
 */
const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  // A no-break space becomes a plain space: every consumer makes plain text, where the two read the same.
  nbsp: ' ',
  ndash: '–',
  mdash: '—',
  hellip: '…',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  laquo: '«',
  raquo: '»',
  middot: '·',
  bull: '•',
  copy: '©',
  reg: '®',
  trade: '™',
}

// Bounded quantifiers and one alternation that starts at `&`: linear on any text, however many `&` or digits.
const REFERENCE = /&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,8});/gi

/**
 * Decodes numeric references (`&#39;`, `&#x4E2D;`) and the common named ones (`&amp;`, `&nbsp;` → a space,
 * `&mdash;`, case-insensitively). Anything else stays as written: unknown names, lone surrogates, code points
 * past U+10FFFF, `&#0;`. Linear in the length of `text`; never throws.
 */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text
  return text.replace(REFERENCE, (match, body: string) => {
    if (body[0] !== '#') return NAMED_ENTITIES[body.toLowerCase()] ?? match
    const hex = body[1] === 'x' || body[1] === 'X'
    const code = hex ? Number.parseInt(body.slice(2), 16) : Number.parseInt(body.slice(1), 10)
    // Lone surrogates and out-of-range code points would throw in fromCodePoint or produce broken text.
    if (!(code > 0 && code <= 0x10ffff) || (code >= 0xd800 && code <= 0xdfff)) return match
    return String.fromCodePoint(code)
  })
}
