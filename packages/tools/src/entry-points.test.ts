import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const SRC = dirname(fileURLToPath(import.meta.url))
const IMPORT = /(?:import|export)\s[^'"]*?from\s+'([^']+)'|import\(\s*'([^']+)'\s*\)/g

// Every module reachable from an entry file, type-only imports included (they end up in the declarations).
function reachable(entry: string): Map<string, string[]> {
  const seen = new Map<string, string[]>()
  const visit = (file: string) => {
    if (seen.has(file)) return
    const specifiers = [...readFileSync(join(SRC, file), 'utf8').matchAll(IMPORT)].map((m) => (m[1] ?? m[2])!)
    seen.set(file, specifiers)
    for (const s of specifiers) if (s.startsWith('./')) visit(s.slice(2).replace(/\.js$/, '.ts'))
  }
  visit(entry)
  return seen
}

describe('entry points', () => {
  // A project without the optional `ai` peer must type-check against the main entry (TS2307 otherwise).
  it('nothing reachable from the main entry imports `ai`, values or types', () => {
    const importers = [...reachable('index.ts')].filter(([, specifiers]) =>
      specifiers.some((s) => s === 'ai' || s.startsWith('ai/')),
    )
    expect(importers.map(([file]) => file)).toEqual([])
  })

  it('the AI SDK adapter is its own entry and does import `ai`', () => {
    expect(reachable('ai-sdk.ts').get('ai-sdk.ts')).toContain('ai')
    const pkg = JSON.parse(readFileSync(join(SRC, '../package.json'), 'utf8'))
    expect(pkg.exports['./ai-sdk']).toMatchObject({
      import: { types: './dist/ai-sdk.d.ts', default: './dist/ai-sdk.js' },
      require: { types: './dist/ai-sdk.d.cts', default: './dist/ai-sdk.cjs' },
    })
  })
})
