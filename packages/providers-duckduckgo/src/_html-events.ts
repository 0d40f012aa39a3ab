import { Tokenizer, type TokenizerCallbacks } from 'htmlparser2'

// htmlparser2's Parser builds its events from its Tokenizer with an open-element stack kept top-first: every open
// tag is an `unshift` and every stray end tag an `indexOf` over the whole stack, so 1 MiB of nested `<div>`s took
// 82 s and a nest of `<svg>`s 66 s (measured on htmlparser2 10.1.0). The Tokenizer itself is a linear state
// machine. This drives it with the Parser's tree rules (implied ends, void elements, `</p>` and `</br>`, foreign
// content) on a top-last stack, with a count of open elements per name so an end tag finds its element or
// knows there is none without a scan: every element is pushed and popped once.

/** What a walk reports: the Parser's `onopentag`, `ontext` and `onclosetag`, in the same order. */
export interface HtmlEvents {
  onopentag(name: string, attributes: Readonly<Record<string, string>>): void
  ontext(text: string): void
  onclosetag(): void
  /** Asked after each end tag: true stops the walk there, leaving the rest of the page unread. */
  done?(): boolean
}

const P = new Set(['p'])
const FORM = new Set(['input', 'option', 'optgroup', 'select', 'button', 'datalist', 'textarea'])
const TABLE_SECTION = new Set(['thead', 'tbody'])
const DD_DT = new Set(['dd', 'dt'])
const RT_RP = new Set(['rt', 'rp'])
// Which open elements a start tag closes, as htmlparser2's Parser has them (it does not export the table).
const OPEN_IMPLIES_CLOSE = new Map<string, ReadonlySet<string>>([
  ['tr', new Set(['tr', 'th', 'td'])],
  ['th', new Set(['th'])],
  ['td', new Set(['thead', 'th', 'td'])],
  ['body', new Set(['head', 'link', 'script'])],
  ['li', new Set(['li'])],
  ['option', new Set(['option'])],
  ['optgroup', new Set(['optgroup', 'option'])],
  ['dd', DD_DT],
  ['dt', DD_DT],
  ['rt', RT_RP],
  ['rp', RT_RP],
  ['tbody', TABLE_SECTION],
  ['tfoot', TABLE_SECTION],
  ...['select', 'input', 'output', 'button', 'datalist', 'textarea'].map((tag) => [tag, FORM] as const),
  ...[
    ...['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'address', 'article', 'aside', 'blockquote', 'details', 'div'],
    ...['dl', 'fieldset', 'figcaption', 'figure', 'footer', 'form', 'header', 'hr', 'main', 'nav', 'ol', 'pre'],
    ...['section', 'table', 'ul'],
  ].map((tag) => [tag, P] as const),
])
const VOID = new Set(
  'area base basefont br col command embed frame hr img input isindex keygen link meta param source track wbr'.split(
    ' ',
  ),
)
const FOREIGN = new Set(['math', 'svg'])
const INTEGRATION = new Set(['mi', 'mo', 'mn', 'ms', 'mtext', 'annotation-xml', 'foreignobject', 'desc', 'title'])

/**
 * Walks an HTML page with htmlparser2's tree rules in time linear in its length. Entities are decoded. Only the
 * attributes named in `keep` are reported (all when it is not given): a page of nested elements is mostly
 * attributes, and the ones nobody reads need not be copied out of it.
 */
export function walkHtml(html: string, events: HtmlEvents, keep?: ReadonlySet<string>): void {
  const tree = new OpenElements(events)
  const tokenizer = new Tokenizer({ decodeEntities: true }, tokenizerCallbacks(html, tree, keep))
  tree.stop = () => tokenizer.pause()
  tokenizer.write(html)
  tokenizer.end()
}

/** The open elements, innermost last, and what opening and closing them reports. */
class OpenElements {
  private readonly stack: string[] = []
  private readonly openByName = new Map<string, number>()
  /** Whether each foreign (`svg`, `math`) or integration element entered puts the walk in foreign content. */
  private readonly foreign: boolean[] = [false]
  private tag = ''
  attributes: Record<string, string> | null = null
  stop = (): void => {}
  private stopped = false

  constructor(private readonly events: HtmlEvents) {}

  open(name: string): void {
    this.tag = name
    const closes = OPEN_IMPLIES_CLOSE.get(name)
    while (closes && this.stack.length > 0 && closes.has(this.stack[this.stack.length - 1]!)) this.pop()
    if (!VOID.has(name)) {
      this.push(name)
      if (FOREIGN.has(name)) this.foreign.push(true)
      else if (INTEGRATION.has(name)) this.foreign.push(false)
    }
    this.attributes = {}
  }

  /** The start tag's `>`: its attributes are complete. */
  endOpenTag(): void {
    if (this.attributes) this.events.onopentag(this.tag, this.attributes)
    this.attributes = null
    if (VOID.has(this.tag)) this.closed()
    this.tag = ''
  }

  /** `<x/>`: self-closing only in foreign content, as in the Parser's HTML mode. */
  selfClose(): void {
    if (this.foreign[this.foreign.length - 1]) this.closeCurrent()
    else this.endOpenTag()
  }

  close(name: string): void {
    if (FOREIGN.has(name) || INTEGRATION.has(name)) this.foreign.pop()
    if (VOID.has(name)) {
      if (name === 'br') this.implied('br')
      return
    }
    if ((this.openByName.get(name) ?? 0) > 0) {
      while (this.pop() !== name);
    } else if (name === 'p') this.implied('p')
  }

  /** End of input: every element still open is closed, innermost first. */
  end(): void {
    while (this.stack.length > 0 && !this.stopped) this.pop()
  }

  // `</p>` with no open p and `</br>` stand for an empty element.
  private implied(name: string): void {
    this.open(name)
    this.closeCurrent()
  }

  private closeCurrent(): void {
    const name = this.tag
    this.endOpenTag()
    if (this.stack[this.stack.length - 1] === name) this.pop()
  }

  private push(name: string): void {
    this.stack.push(name)
    this.openByName.set(name, (this.openByName.get(name) ?? 0) + 1)
  }

  private pop(): string {
    const name = this.stack.pop()!
    this.openByName.set(name, this.openByName.get(name)! - 1)
    this.closed()
    return name
  }

  private closed(): void {
    if (this.stopped) return
    this.events.onclosetag()
    if (this.events.done?.()) {
      this.stopped = true
      this.stop()
    }
  }

  text(text: string): void {
    if (!this.stopped) this.events.ontext(text)
  }
}

/** The Parser's handling of tokenizer events, reduced to what `HtmlEvents` reports. */
function tokenizerCallbacks(
  html: string,
  tree: OpenElements,
  keep: ReadonlySet<string> | undefined,
): TokenizerCallbacks {
  let name = ''
  let value = ''
  let kept = false
  const ignore = () => {}
  return {
    onopentagname: (start, end) => tree.open(html.slice(start, end).toLowerCase()),
    onopentagend: () => tree.endOpenTag(),
    onselfclosingtag: () => tree.selfClose(),
    onclosetag: (start, end) => tree.close(html.slice(start, end).toLowerCase()),
    onattribname: (start, end) => {
      name = html.slice(start, end)
      kept = keep === undefined || keep.has(name)
    },
    onattribdata: (start, end) => {
      if (kept) value += html.slice(start, end)
    },
    onattribentity: (codePoint) => {
      if (kept) value += String.fromCodePoint(codePoint)
    },
    onattribend: () => {
      // The first of repeated attributes wins, as in the Parser.
      if (kept && tree.attributes && !Object.hasOwn(tree.attributes, name)) tree.attributes[name] = value
      value = ''
    },
    ontext: (start, end) => tree.text(html.slice(start, end)),
    ontextentity: (codePoint) => tree.text(String.fromCodePoint(codePoint)),
    onend: () => tree.end(),
    oncomment: ignore,
    oncdata: ignore,
    ondeclaration: ignore,
    onprocessinginstruction: ignore,
  }
}
