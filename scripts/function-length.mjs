#!/usr/bin/env node
// Measures every function in packages/*/src and apps/*/src (tests excluded) and fails when one is longer than the
// limit: issue 19's "no function longer than ~150 lines", checked instead of claimed. It also holds each file to a
// budget of source lines (issue 37: a file over ~400 is a sign it has two jobs); the files still waiting to be
// divided are listed in scripts/file-budget.json with a ceiling they may not grow past. Run by `pnpm check`.
//
//   node scripts/function-length.mjs [--max N] [--max-file N] [--top N] [dir ...]
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'

export const DEFAULT_MAX_LINES = 150
export const DEFAULT_MAX_FILE_LINES = 400
const SOURCE = /\.(?:ts|tsx|mts)$/
const SKIPPED = /(?:\.test\.tsx?|\.test-d\.ts|\.d\.ts|\.bench\.ts)$/

/** The name a reader would search for: the declaration's own, else what it is assigned to, else `(anonymous)`. */
function nameOf(node) {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text
  if (node.name && (ts.isStringLiteral(node.name) || ts.isPrivateIdentifier(node.name))) return node.name.text
  if (ts.isConstructorDeclaration(node)) return 'constructor'
  const parent = node.parent
  if (parent && ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text
  if (parent && ts.isPropertyAssignment(parent) && parent.name && 'text' in parent.name) return parent.name.text
  if (parent && ts.isCallExpression(parent)) return `(callback of ${parent.expression.getText().slice(0, 40)})`
  return '(anonymous)'
}

const isFunctionLike = (node) =>
  ts.isFunctionDeclaration(node) ||
  ts.isFunctionExpression(node) ||
  ts.isArrowFunction(node) ||
  ts.isMethodDeclaration(node) ||
  ts.isConstructorDeclaration(node) ||
  ts.isGetAccessorDeclaration(node) ||
  ts.isSetAccessorDeclaration(node)

/** Every function-like node of one source text (nested ones too), with its line span. */
export function measureFunctions(text, fileName = 'source.ts') {
  const kind = fileName.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, kind)
  const found = []
  const visit = (node) => {
    if (isFunctionLike(node) && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line + 1
      found.push({ name: nameOf(node), line: start, lines: end - start + 1 })
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

/**
 * Lines of source in a text: lines that hold part of a token other than a comment, so documentation and blank
 * lines never count against a file. A multi-line token (a template literal) counts every line it spans.
 */
export function countSourceLines(text, fileName = 'source.ts') {
  const variant = fileName.endsWith('x') ? ts.LanguageVariant.JSX : ts.LanguageVariant.Standard
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, variant, text)
  const starts = ts.computeLineStarts(text)
  const lineOf = (pos) => ts.computeLineOfPosition(starts, pos)
  const counted = new Set()
  for (let token = scanner.scan(); token !== ts.SyntaxKind.EndOfFileToken; token = scanner.scan()) {
    if (
      token === ts.SyntaxKind.WhitespaceTrivia ||
      token === ts.SyntaxKind.NewLineTrivia ||
      token === ts.SyntaxKind.SingleLineCommentTrivia ||
      token === ts.SyntaxKind.MultiLineCommentTrivia
    )
      continue
    const last = lineOf(Math.max(scanner.getTokenStart(), scanner.getTokenEnd() - 1))
    for (let line = lineOf(scanner.getTokenStart()); line <= last; line++) counted.add(line)
  }
  return counted.size
}

function sourceFiles(dir) {
  const files = []
  for (const entry of readdirSync(dir)) {
    if (entry === 'node_modules' || entry === 'dist') continue
    const path = join(dir, entry)
    if (statSync(path).isDirectory()) files.push(...sourceFiles(path))
    else if (SOURCE.test(entry) && !SKIPPED.test(entry)) files.push(path)
  }
  return files
}

/** The `src` directories the rule covers: every package's and every app's. */
export function defaultDirs(root) {
  return ['packages', 'apps'].flatMap((group) =>
    readdirSync(join(root, group))
      .map((name) => join(root, group, name, 'src'))
      .filter((dir) => {
        try {
          return statSync(dir).isDirectory()
        } catch {
          return false
        }
      }),
  )
}

/** Every function in `dirs`, longest first, with its file relative to `root`. */
export function measureTree(root, dirs = defaultDirs(root)) {
  return dirs
    .flatMap(sourceFiles)
    .flatMap((file) =>
      measureFunctions(readFileSync(file, 'utf8'), file).map((f) => ({ ...f, file: relative(root, file) })),
    )
    .sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file) || a.line - b.line)
}

/** Every source file in `dirs` with its source lines, largest first, relative to `root`. */
export function measureFiles(root, dirs = defaultDirs(root)) {
  return dirs
    .flatMap(sourceFiles)
    .map((file) => ({ file: relative(root, file), lines: countSourceLines(readFileSync(file, 'utf8'), file) }))
    .sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file))
}

/**
 * Files over `max` that are not listed in `budget` (path → ceiling), listed files past their ceiling, and listed
 * files that no longer need a place on the list (so it only ever shrinks).
 */
export function checkFileBudget(files, max, budget) {
  const byFile = new Map(files.map((f) => [f.file, f.lines]))
  const problems = []
  for (const { file, lines } of files) {
    const ceiling = budget[file]
    if (ceiling === undefined && lines > max) problems.push(`${file}: ${lines} source lines, over ${max}: divide it`)
    else if (ceiling !== undefined && lines > ceiling)
      problems.push(`${file}: ${lines} source lines, past its ceiling of ${ceiling} in scripts/file-budget.json`)
  }
  for (const file of Object.keys(budget)) {
    const lines = byFile.get(file)
    if (lines === undefined) problems.push(`${file}: listed in scripts/file-budget.json but not found: remove it`)
    else if (lines <= max)
      problems.push(`${file}: ${lines} source lines, within ${max} now: remove it from scripts/file-budget.json`)
  }
  return problems
}

class UsageError extends Error {}

function positiveInteger(flag, value) {
  if (value === undefined || !/^\d+$/.test(value) || Number(value) < 1)
    throw new UsageError(`${flag} takes a whole number of lines ≥ 1, got ${JSON.stringify(value ?? '')}`)
  return Number(value)
}

/** `--max N`, `--top N` and directories; a clear error for anything else. */
export function parseArgs(argv) {
  const options = { max: DEFAULT_MAX_LINES, maxFile: DEFAULT_MAX_FILE_LINES, top: 10, dirs: [] }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (arg === '--max') options.max = positiveInteger('--max', argv[++i])
    else if (arg === '--max-file') options.maxFile = positiveInteger('--max-file', argv[++i])
    else if (arg === '--top') options.top = positiveInteger('--top', argv[++i])
    else if (arg.startsWith('-'))
      throw new UsageError(
        `unknown flag ${arg}; use --max N (default ${DEFAULT_MAX_LINES}), --max-file N (default ${DEFAULT_MAX_FILE_LINES}), --top N or directories`,
      )
    else options.dirs.push(arg)
  }
  return options
}

function main(argv) {
  const root = fileURLToPath(new URL('..', import.meta.url))
  let options
  try {
    options = parseArgs(argv)
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    process.stderr.write(`function-length: ${error.message}\n`)
    return 2
  }
  const dirs = options.dirs.length > 0 ? options.dirs : undefined
  const all = measureTree(root, dirs)
  const over = all.filter((f) => f.lines > options.max)
  const row = (f) => `  ${String(f.lines).padStart(4)} lines  ${f.file}:${f.line}  ${f.name}`
  if (over.length > 0) {
    process.stderr.write(`function-length: ${over.length} function(s) longer than ${options.max} lines:\n`)
    process.stderr.write(`${over.map(row).join('\n')}\n`)
    return 1
  }
  process.stdout.write(
    `function-length: ${all.length} functions, none longer than ${options.max} lines; the longest:\n${all
      .slice(0, options.top)
      .map(row)
      .join('\n')}\n`,
  )
  return fileBudget(root, dirs, options.maxFile)
}

function fileBudget(root, dirs, max) {
  const files = measureFiles(root, dirs)
  const budget = dirs ? {} : JSON.parse(readFileSync(join(root, 'scripts', 'file-budget.json'), 'utf8'))
  const problems = checkFileBudget(files, max, budget)
  if (problems.length > 0) {
    process.stderr.write(`function-length: ${problems.length} file(s) off their budget:\n  ${problems.join('\n  ')}\n`)
    return 1
  }
  const listed = Object.keys(budget).length
  process.stdout.write(
    `function-length: ${files.length} files, none over ${max} source lines but the ${listed} waiting to be divided (scripts/file-budget.json)\n`,
  )
  return 0
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = main(process.argv.slice(2))
