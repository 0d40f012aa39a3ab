import TurndownService from 'turndown'
import type { El } from './_dom.js'
import { addGfmTables } from './_gfm-tables.js'

function createTurndown(): TurndownService {
  const service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '_',
    hr: '---',
    linkStyle: 'inlined',
  })
  service.remove([
    'script',
    'style',
    'noscript',
    'template',
    'iframe',
    'object',
    'embed',
    'nav',
    'form',
    'button',
    'input',
    'select',
    'textarea',
  ] as never)
  addGfmTables(service)
  // NOTE(turndown): its default list prefix is `-   ` (marker plus three spaces); one space is what people write and diff.
  service.addRule('compactListItem', {
    filter: 'li',
    replacement: (content, node, options) => {
      const el = node as unknown as El & { parentNode: (El & { children: ArrayLike<El> }) | null; nextSibling: unknown }
      let prefix = `${options.bulletListMarker ?? '-'} `
      const parent = el.parentNode
      if (parent?.nodeName === 'OL') {
        const start = Number(parent.getAttribute('start') ?? '1')
        const index = Array.prototype.indexOf.call(parent.children, el)
        prefix = `${(Number.isFinite(start) ? start : 1) + index}. `
      }
      const body = content
        .replace(/^\n+/, '')
        .replace(/\n+$/, '\n')
        .replace(/\n/gm, `\n${' '.repeat(prefix.length)}`)
      return prefix + body + (el.nextSibling && !/\n$/.test(body) ? '\n' : '')
    },
  })
  // NOTE(turndown): fenced blocks take the language only from `code.language-x`; many sites put it on <pre> instead.
  service.addRule('fencedPreLanguage', {
    filter: (node) => node.nodeName === 'PRE' && !(node.firstChild && node.firstChild.nodeName === 'CODE'),
    replacement: (_content, node) => {
      const el = node as unknown as El
      const lang = /(?:lang(?:uage)?-)([\w+#-]+)/.exec(el.getAttribute('class') ?? '')?.[1] ?? ''
      const code = (el.textContent ?? '').replace(/\n$/, '')
      const fence = code.includes('```') ? '~~~' : '```'
      return `\n\n${fence}${lang}\n${code}\n${fence}\n\n`
    },
  })
  return service
}

let turndownInstance: TurndownService | undefined

/**
 * `root` as markdown. Consumes `root`: turndown collapses its whitespace and marks its nodes, so read anything else
 * from it first.
 */
export function toMarkdown(root: El): string {
  turndownInstance ??= createTurndown()
  // NOTE(turndown): it converts a copy of a DOM node (`cloneNode(true)`, a third of its time on a large article in
  // linkedom); the node is not needed afterwards, so it converts the node itself.
  Object.defineProperty(root, 'cloneNode', { configurable: true, value: () => root })
  try {
    return turndownInstance
      .turndown(root as never)
      .replace(/\n{3,}/g, '\n\n')
      .trim()
  } finally {
    Reflect.deleteProperty(root, 'cloneNode')
  }
}
