import { readFileSync, readdirSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const SRC = dirname(fileURLToPath(import.meta.url))

// Static, type-only, re-export and dynamic imports of a sibling module: all of them order module loading or tie the
// two files' types together, so each counts as an edge.
const RELATIVE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.name.endsWith('.ts') && !/\.test(-d)?\.ts$/.test(entry.name) ? [path] : []
  })

/** Each source file of `src` (relative path) with the source files it imports. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>()
  for (const file of sourceFiles(SRC)) {
    const targets = [...readFileSync(file, 'utf8').matchAll(RELATIVE_IMPORT)].map((m) =>
      relative(SRC, resolve(dirname(file), m[1]!.replace(/\.js$/, '.ts'))),
    )
    graph.set(relative(SRC, file), [...new Set(targets)])
  }
  return graph
}

/** Every import cycle, each as the files along it, found by depth-first search. */
function findCycles(graph: Map<string, string[]>): string[][] {
  const cycles: string[][] = []
  const done = new Set<string>()
  const visit = (file: string, path: string[]) => {
    const at = path.indexOf(file)
    if (at >= 0) {
      cycles.push([...path.slice(at), file])
      return
    }
    if (done.has(file)) return
    for (const next of graph.get(file) ?? []) visit(next, [...path, file])
    done.add(file)
  }
  for (const file of graph.keys()) visit(file, [])
  return cycles
}

describe('apps/server/src imports', () => {
  it('finds a cycle when there is one', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ])
    expect(findCycles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts', 'a.ts']])
  })

  it('reads the real graph (app.ts imports its routers)', () => {
    expect(importGraph().get('app.ts')).toEqual(expect.arrayContaining(['routes/search.ts', 'settings.ts']))
  })

  it('have no cycle', () => {
    expect(findCycles(importGraph()).map((cycle) => cycle.join(' → '))).toEqual([])
  })
})
