import type TurndownService from 'turndown'

// The part of linkedom's element these rules use (the package builds without the DOM lib).
interface TableNode {
  nodeName: string
  parentNode: TableNode | null
  textContent: string | null
  getAttribute(name: string): string | null
  querySelector(selector: string): TableNode | null
  querySelectorAll(selector: string): ArrayLike<unknown>
}

/**
 * HTML tables as GFM pipe tables. Turndown alone runs cells together (`23/1674/60` for three columns), and the GFM
 * plugins read `table.rows`, which linkedom's elements do not have; these rules walk the DOM themselves. The first
 * row is the header (GFM requires one), rows are padded to the widest, `colspan` repeats an empty cell, and a
 * caption becomes a line above the table. Layout tables (nested tables, a single cell) stay plain blocks.
 */
export function addGfmTables(service: TurndownService): void {
  service.addRule('gfmTableCell', {
    filter: ['th', 'td'],
    replacement: (content, node) => {
      if (isLayout(tableOf(node as unknown as TableNode))) return `\n\n${content}\n\n`
      const span = Number((node as unknown as TableNode).getAttribute('colspan') ?? '1')
      const extra = Number.isInteger(span) && span > 1 ? Math.min(span, 50) - 1 : 0
      return `${CELL}${cellText(content)}${`${CELL}`.repeat(extra)}`
    },
  })
  service.addRule('gfmTableRow', {
    filter: 'tr',
    replacement: (content, node) =>
      isLayout(tableOf(node as unknown as TableNode)) ? content : `\n${ROW}${content}\n`,
  })
  service.addRule('gfmTableSection', { filter: ['thead', 'tbody', 'tfoot'], replacement: (content) => content })
  service.addRule('gfmTableCaption', { filter: 'caption', replacement: () => '' })
  service.addRule('gfmTable', {
    filter: 'table',
    replacement: (content, node) => {
      const table = node as unknown as TableNode
      if (isLayout(table)) return `\n\n${content}\n\n`
      const rows = content
        .split('\n')
        .filter((line) => line.startsWith(ROW))
        .map((line) => line.slice(ROW.length).split(CELL).slice(1))
      if (rows.length === 0) return ''
      const width = Math.max(...rows.map((cells) => cells.length))
      const line = (cells: string[]) =>
        `| ${[...cells, ...Array(width - cells.length).fill('')].map((c) => c || ' ').join(' | ')} |`
      const [head, ...body] = rows
      const caption = cellText(table.querySelector('caption')?.textContent ?? '')
      return `\n\n${caption ? `${caption}\n\n` : ''}${[line(head!), line(Array(width).fill('---')), ...body.map(line)].join('\n')}\n\n`
    },
  })
}

// Private-use characters mark rows and cells until the table rule lays them out; page text never contains them.
const ROW = '\uE000'
const CELL = '\uE001'

// One line per cell: GFM cells cannot hold line breaks, and a bare `|` would end the cell.
function cellText(content: string): string {
  return content
    .replace(/\s*\n+\s*/g, ' ')
    .replace(/\|/g, '\\|')
    .trim()
}

function tableOf(node: TableNode): TableNode | null {
  let parent = node.parentNode
  while (parent && parent.nodeName !== 'TABLE') parent = parent.parentNode
  return parent
}

// Each cell and row asks about its table: the answer is kept per table, not searched for again per cell.
const layoutTables = new WeakMap<TableNode, boolean>()

// Tables used for page layout: a table inside, or a single cell.
function isLayout(table: TableNode | null): boolean {
  if (!table) return true
  let layout = layoutTables.get(table)
  if (layout === undefined) {
    layout = table.querySelector('table') !== null || table.querySelectorAll('td, th').length <= 1
    layoutTables.set(table, layout)
  }
  return layout
}
