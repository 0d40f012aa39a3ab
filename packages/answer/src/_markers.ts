// Citation markers in model output: `[p3]`, `[p3: "exact words"]`, `[p1, p4]`, `[p1; p2: “words”]`. One forward
// pass: a marker is a `[` … `]` pair with no other `[` inside (so a quote cannot hold square brackets), and the
// next `]` is found once for every `[` before it, so a run of ten thousand `[` costs one scan.

/** One cited passage inside a marker. */
export interface MarkerItem {
  passage: string
  quote?: string
}

/** A marker's span in the text (`[` to `]` inclusive) and what it cites. */
export interface Marker {
  start: number
  end: number
  items: MarkerItem[]
}

const MAX_ID_DIGITS = 6
const OPEN_QUOTES = new Set(['"', '\u201c', '\u201d', '\u201e', '\u00ab', '\u300c', '\u300e'])
const CLOSE_QUOTES = new Set(['"', '\u201c', '\u201d', '\u00bb', '\u300d', '\u300f'])

/** Every citation marker of the text, in order. Linear in the text's length. */
export function findMarkers(text: string): Marker[] {
  const markers: Marker[] = []
  let close = -1
  let open = text.indexOf('[')
  while (open !== -1) {
    if (close < open) {
      close = text.indexOf(']', open + 1)
      if (close === -1) break
    }
    const next = text.indexOf('[', open + 1)
    if (next !== -1 && next < close) {
      open = next
      continue
    }
    const items = parseMarker(text, open + 1, close)
    if (items) markers.push({ start: open, end: close + 1, items })
    open = next
  }
  return markers
}

const isSpace = (ch: string | undefined): boolean => ch === ' ' || ch === '\t' || ch === '\u00a0' || ch === '\u3000'
const isDigit = (ch: string | undefined): boolean => ch !== undefined && ch >= '0' && ch <= '9'

/** A cursor over `text[from, to)`. */
class Cursor {
  constructor(
    readonly text: string,
    public at: number,
    readonly to: number,
  ) {}
  get ch(): string | undefined {
    return this.at < this.to ? this.text[this.at] : undefined
  }
  skipSpaces(): void {
    while (isSpace(this.ch)) this.at++
  }
  get done(): boolean {
    return this.at >= this.to
  }
}

/** The items of a marker's content, or null when it is not a citation marker. */
function parseMarker(text: string, from: number, to: number): MarkerItem[] | null {
  const c = new Cursor(text, from, to)
  const items: MarkerItem[] = []
  for (;;) {
    c.skipSpaces()
    const passage = readId(c)
    if (!passage) return null
    c.skipSpaces()
    let quote: string | undefined
    if (c.ch === ':' || c.ch === '\uff1a') {
      c.at++
      c.skipSpaces()
      quote = readQuote(c)
    }
    items.push(quote ? { passage, quote } : { passage })
    c.skipSpaces()
    if (c.done) return items
    if (c.ch !== ',' && c.ch !== ';' && c.ch !== '\uff0c' && c.ch !== '\uff1b') return null
    c.at++
  }
}

/** `p` or `P` and 1–6 digits, as `p3`. */
function readId(c: Cursor): string | null {
  if (c.ch !== 'p' && c.ch !== 'P') return null
  const start = ++c.at
  while (isDigit(c.ch) && c.at - start < MAX_ID_DIGITS + 1) c.at++
  const digits = c.text.slice(start, c.at)
  if (digits.length === 0 || digits.length > MAX_ID_DIGITS || isDigit(c.ch)) return null
  return `p${digits}`
}

/**
 * A quote after `pN:`. Quoted, it ends at the first closing mark followed by the end of the marker or by a
 * separator and the next `pN`; a quote left open runs to the end of the marker; an unquoted one is the rest.
 */
function readQuote(c: Cursor): string | undefined {
  if (c.done) return undefined
  if (!OPEN_QUOTES.has(c.ch!)) {
    const rest = c.text.slice(c.at, c.to).trim()
    c.at = c.to
    return rest || undefined
  }
  const start = ++c.at
  while (!c.done) {
    if (CLOSE_QUOTES.has(c.ch!) && endsQuote(c.text, c.at + 1, c.to)) {
      const quote = c.text.slice(start, c.at).trim()
      c.at++
      return quote || undefined
    }
    c.at++
  }
  return c.text.slice(start, c.to).trim() || undefined
}

/** Whether a closing mark just before `at` ends the quote: only spaces, then the end or `, pN`. */
function endsQuote(text: string, at: number, to: number): boolean {
  let i = at
  while (i < to && isSpace(text[i])) i++
  if (i >= to) return true
  if (text[i] !== ',' && text[i] !== ';' && text[i] !== '\uff0c' && text[i] !== '\uff1b') return false
  i++
  while (i < to && isSpace(text[i])) i++
  return (text[i] === 'p' || text[i] === 'P') && isDigit(text[i + 1])
}
