#!/usr/bin/env node
// Fails when modules of the house import each other in a circle (issue 37: "no import circles"). A circle makes
// load order decide which binding is still undefined, and it ties files together so neither can be read or moved
// alone; type-only circles count too, because they tie the files as tightly for a reader. Run by `pnpm check`.
//
// Built on the TypeScript compiler API rather than madge or dpdm: typescript is already the house's compiler, so
// the script resolves every specifier exactly as `tsc` does (the `@search-layer/source` condition, `.js` → `.ts`,
// package subpaths) with no second resolver to configure and no new dependency; the graph walk is Tarjan's
// strongly connected components, linear in files and imports.
//
//   node scripts/import-cycles.mjs [dir ...]     (default: packages/*/src, apps/*/src, examples/*/src, bench/src)
import { readFileSync, readdirSync, realpathSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'

const SOURCE = /\.(?:ts|tsx|mts)$/
const SKIPPED = /(?:\.d\.ts)$/
const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)))

/** Module specifiers of one file: static imports and re-exports (type-only included) and literal `import()`. */
export function importedSpecifiers(text, fileName = 'source.ts') {
  const kind = fileName.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, kind)
  const found = []
  const visit = (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (ts.isStringLiteral(node.moduleSpecifier)) found.push(node.moduleSpecifier.text)
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      if (ts.isStringLiteral(node.argument.literal)) found.push(node.argument.literal.text)
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      found.push(node.arguments[0].text)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

function listSources(dir, out = []) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist') continue
    const path = join(dir, name)
    if (statSync(path).isDirectory()) listSources(path, out)
    else if (SOURCE.test(name) && !SKIPPED.test(name)) out.push(path)
  }
  return out
}

/** The import graph of the given files: each file to the files of the same set it imports. */
export function importGraph(files, compilerOptions) {
  const options = compilerOptions ?? readCompilerOptions()
  const known = new Set(files.map((file) => realpathSync(file)))
  const host = ts.createCompilerHost(options)
  const graph = new Map()
  for (const file of known) {
    const targets = new Set()
    for (const specifier of importedSpecifiers(readFileSync(file, 'utf8'), file)) {
      const resolved = ts.resolveModuleName(specifier, file, options, host).resolvedModule
      if (!resolved) continue
      const target = realpathSync(resolved.resolvedFileName)
      if (known.has(target)) targets.add(target)
    }
    graph.set(file, [...targets])
  }
  return graph
}

/**
 * Every strongly connected component of more than one file (or a file importing itself): its files, and one
 * concrete circle through it (first file repeated at the end) to show the reader where to cut.
 */
export function findCycles(graph) {
  const index = new Map()
  const low = new Map()
  const stack = []
  const onStack = new Set()
  const components = []
  let next = 0
  const connect = (root) => {
    // Iterative Tarjan: a deep import chain must not overflow the call stack.
    const work = [[root, 0]]
    index.set(root, next)
    low.set(root, next++)
    stack.push(root)
    onStack.add(root)
    while (work.length > 0) {
      const frame = work[work.length - 1]
      const [node, at] = frame
      const targets = graph.get(node) ?? []
      if (at < targets.length) {
        frame[1]++
        const target = targets[at]
        if (!index.has(target)) {
          index.set(target, next)
          low.set(target, next++)
          stack.push(target)
          onStack.add(target)
          work.push([target, 0])
        } else if (onStack.has(target)) low.set(node, Math.min(low.get(node), index.get(target)))
        continue
      }
      work.pop()
      if (work.length > 0) {
        const parent = work[work.length - 1][0]
        low.set(parent, Math.min(low.get(parent), low.get(node)))
      }
      if (low.get(node) !== index.get(node)) continue
      const component = []
      let member
      do {
        member = stack.pop()
        onStack.delete(member)
        component.push(member)
      } while (member !== node)
      const selfLoop = component.length === 1 && targets.includes(node)
      if (component.length > 1 || selfLoop) components.push(component)
    }
  }
  for (const node of graph.keys()) if (!index.has(node)) connect(node)
  return components.map((component) => ({ files: component.sort(), circle: circleWithin(graph, new Set(component)) }))
}

/** One concrete circle through a strongly connected component, found by breadth-first search back to its start. */
function circleWithin(graph, members) {
  const start = [...members].sort()[0]
  const cameFrom = new Map()
  const queue = [start]
  while (queue.length > 0) {
    const node = queue.shift()
    for (const target of graph.get(node) ?? []) {
      if (!members.has(target)) continue
      if (target === start) {
        const path = [node]
        while (path[0] !== start) path.unshift(cameFrom.get(path[0]))
        return [...path, start]
      }
      if (!cameFrom.has(target)) {
        cameFrom.set(target, node)
        queue.push(target)
      }
    }
  }
  return [start, start]
}

function readCompilerOptions() {
  const configPath = join(ROOT, 'tsconfig.base.json')
  const { config } = ts.readConfigFile(configPath, ts.sys.readFile)
  return ts.parseJsonConfigFileContent(config, ts.sys, ROOT).options
}

function defaultDirs() {
  const dirs = []
  for (const group of ['packages', 'apps', 'examples']) {
    for (const name of readdirSync(join(ROOT, group))) dirs.push(join(ROOT, group, name, 'src'))
  }
  dirs.push(join(ROOT, 'bench', 'src'))
  return dirs.filter((dir) => statSync(dir, { throwIfNoEntry: false })?.isDirectory())
}

function main(argv) {
  const dirs = argv.length > 0 ? argv.map((dir) => resolve(dir)) : defaultDirs()
  const files = dirs.flatMap((dir) => listSources(dir))
  const cycles = findCycles(importGraph(files))
  if (cycles.length === 0) {
    console.log(`import-cycles: ${files.length} files, no import circles`)
    return 0
  }
  console.error(`import-cycles: ${cycles.length} import circle(s):`)
  for (const { files: members, circle } of cycles) {
    const others = members.length > circle.length - 1 ? ` (${members.length} files tied together)` : ''
    console.error(`  ${circle.map((file) => relative(ROOT, file)).join(' → ')}${others}`)
  }
  return 1
}

if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2))
}
