import { Lexer, type Token, type Tokens } from 'marked'
import { createColors } from 'picocolors'

// Loaded only when a search prints markdown to a colour terminal (see `colourTerminal`): a piped or JSON run never
// parses this module or marked.

const c = createColors(true)

/**
 * Markdown as a terminal shows it: headings and `**strong**` bold, `_emphasis_` italic, links as their underlined
 * text followed by the address (dim), lists with bullets and numbers kept, code in colour, quotes behind a bar.
 * Lines are left to the terminal to wrap, which keeps wide (CJK) characters right. `markdown` must already be
 * terminal-safe: escapes in it would be passed through.
 */
export function renderTerminalMarkdown(markdown: string): string {
  const tokens = new Lexer({ gfm: true }).lex(markdown)
  return `${blocks(tokens, '').trimEnd()}\n`
}

function blocks(tokens: readonly Token[], indent: string): string {
  const out: string[] = []
  for (const token of tokens) {
    const text = block(token as Tokens.Generic, indent)
    if (text !== undefined) out.push(text)
  }
  return out.join('\n\n')
}

function block(token: Tokens.Generic, indent: string): string | undefined {
  switch (token.type) {
    case 'space':
      return undefined
    case 'heading':
      return indent + c.bold(token.depth <= 2 ? c.underline(inline(token.tokens)) : inline(token.tokens))
    case 'paragraph':
      return indentLines(inline(token.tokens), indent)
    case 'text':
      return indentLines(token.tokens ? inline(token.tokens) : token.text, indent)
    case 'list':
      return list(token as Tokens.List, indent)
    case 'blockquote':
      return blocks(token.tokens ?? [], '')
        .split('\n')
        .map((line) => `${indent}${c.dim('│')} ${c.italic(line)}`)
        .join('\n')
    case 'code':
      return indentLines(c.cyan(token.text), `${indent}    `)
    case 'hr':
      return indent + c.dim('─'.repeat(40))
    case 'table':
      return table(token as Tokens.Table, indent)
    default:
      return indentLines(token.raw.trimEnd(), indent)
  }
}

function list(token: Tokens.List, indent: string): string {
  const start = typeof token.start === 'number' ? token.start : 1
  const items = token.items.map((item, i) => {
    const marker = token.ordered ? `${start + i}.` : '•'
    const task = item.task ? (item.checked ? '[x] ' : '[ ] ') : ''
    const pad = ' '.repeat(marker.length + 1)
    // The item's blocks at the item's own indent; its first line then goes after the marker.
    const body = item.tokens.map((t) => block(t as Tokens.Generic, `${indent}${pad}`)).filter((t) => t !== undefined)
    const text = body.join(item.loose ? '\n\n' : '\n')
    return `${indent}${c.dim(marker)} ${task}${text.slice(indent.length + pad.length)}`
  })
  return items.join(token.loose ? '\n\n' : '\n')
}

function table(token: Tokens.Table, indent: string): string {
  const row = (cells: readonly Tokens.TableCell[], style: (s: string) => string) =>
    indent + cells.map((cell) => style(inline(cell.tokens))).join(c.dim(' │ '))
  return [row(token.header, c.bold), ...token.rows.map((cells) => row(cells, (s) => s))].join('\n')
}

function inline(tokens: readonly Token[] | undefined): string {
  let out = ''
  for (const token of tokens ?? []) out += span(token as Tokens.Generic)
  return out
}

function span(token: Tokens.Generic): string {
  switch (token.type) {
    case 'strong':
      return c.bold(inline(token.tokens))
    case 'em':
      return c.italic(inline(token.tokens))
    case 'del':
      return c.strikethrough(inline(token.tokens))
    case 'codespan':
      return c.yellow(token.text)
    case 'br':
      return '\n'
    case 'link':
      return link(token as Tokens.Link)
    case 'image':
      return `${c.dim('[image]')} ${inline(token.tokens) || token.text} ${c.dim(token.href)}`
    case 'escape':
      return token.text
    case 'text':
      return token.tokens ? inline(token.tokens) : token.text
    default:
      return token.raw
  }
}

// The address stays visible (dim) after the text: clickable where the terminal links URLs, copyable everywhere.
function link(token: Tokens.Link): string {
  const text = inline(token.tokens)
  const label = c.underline(c.blue(text))
  return text === token.href ? label : `${label} ${c.dim(token.href)}`
}

function indentLines(text: string, indent: string): string {
  return indent ? text.replace(/^/gm, indent) : text
}
