import { removeThinkBlocks } from './_markdown-scan.js'

// Content beyond this is not scanned for JSON; keeps the bracket scan linear in practice.
const MAX_SCAN_CHARS = 200_000
// Characters the search for a JSON list may read in all: a few times the text it searches.
const JSON_SCAN_BUDGET = 4 * MAX_SCAN_CHARS

/** The balanced JSON value starting at `start`; what it reads is taken from `scan.budget`, and stops it at 0. */
function balancedJsonAt(text: string, start: number, scan: { budget: number }): string | null {
  const open = text[start]
  const stack: string[] = [open === '{' ? '}' : ']']
  let inString = false
  const limit = Math.min(text.length, start + 1 + scan.budget)
  scan.budget -= limit - start - 1
  for (let i = start + 1; i < limit; i++) {
    const c = text[i]
    if (inString) {
      if (c === '\\') i++
      else if (c === '"') inString = false
      continue
    }
    if (c === '"') inString = true
    else if (c === '{') stack.push('}')
    else if (c === '[') stack.push(']')
    else if (c === '}' || c === ']') {
      const closes = stack.pop() === c
      if (closes && stack.length > 0) continue
      scan.budget += limit - i - 1
      return closes ? text.slice(start, i + 1) : null
    }
  }
  return null
}

function resultsArray(value: unknown): unknown[] | null {
  if (Array.isArray(value))
    return value.length === 0 || value.some((v) => v !== null && typeof v === 'object' && !Array.isArray(v))
      ? value
      : null
  if (value !== null && typeof value === 'object') {
    for (const key of ['results', 'sources', 'items', 'data']) {
      const inner = (value as Record<string, unknown>)[key]
      if (Array.isArray(inner)) return inner
    }
  }
  return null
}

/**
 * Finds the JSON result list in model output: drops `<think>` blocks, prefers fenced code blocks, and tolerates
 * prose before and after the JSON. Returns null when there is none. Never throws.
 */
export function extractJsonResults(content: string): unknown[] | null {
  let text = removeThinkBlocks(content.slice(0, MAX_SCAN_CHARS))
  const close = text.search(/<\/think(?:ing)?>/i)
  if (close >= 0) text = text.slice(text.indexOf('>', close) + 1)
  const candidates = [...text.matchAll(/```[a-zA-Z]*\s*\n?([\s\S]*?)```/g)].map((m) => m[1]!)
  candidates.push(text)
  // Each try reads on until its brackets balance: 200 tries from unclosed brackets would read the text 200 times.
  const scan = { budget: JSON_SCAN_BUDGET }
  for (const candidate of candidates) {
    let tries = 0
    for (let i = 0; i < candidate.length && tries < 200 && scan.budget > 0; i++) {
      const c = candidate[i]
      if (c !== '{' && c !== '[') continue
      tries++
      const slice = balancedJsonAt(candidate, i, scan)
      if (!slice) continue
      let value: unknown
      try {
        value = JSON.parse(slice)
      } catch {
        continue
      }
      const list = resultsArray(value)
      if (list) return list
      i += slice.length - 1
    }
  }
  return null
}
