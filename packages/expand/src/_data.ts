import glossaryJson from '../../../references/zh-en-glossary.json'
import synonymsJson from '../../../references/synonyms.json'

export interface SynonymRule {
  from: string
  /** The first word of `from`, lower-cased: text without it cannot match `regex` (checked before running it). */
  needle: string
  to: string
  regex: RegExp
}

export interface Glossary {
  terms: ReadonlyMap<string, string>
  fronted: ReadonlyMap<string, string>
  dropped: ReadonlySet<string>
  maxTermLength: number
}

interface SynonymEntry {
  to: string
  caseSensitive?: boolean
  notBefore?: string[]
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

// Token characters on both sides: 'node.js' keeps its 'js', 'c#' and 'ts-node' stay whole, and Han characters
// count as a boundary so 'k8s部署' still expands.
const LEFT = '(?<![A-Za-z0-9_.#+\\-/@])'
const RIGHT = '(?![A-Za-z0-9_#+\\-/@]|\\.[A-Za-z0-9])'

function compileSynonyms(raw: { terms: Record<string, SynonymEntry> }): SynonymRule[] {
  return Object.entries(raw.terms)
    .sort(([a], [b]) => b.length - a.length)
    .map(([from, entry]) => {
      if (typeof entry.to !== 'string' || entry.to.trim() === '')
        throw new Error(`synonyms.json: "${from}" has no target`)
      const notBefore = entry.notBefore?.length
        ? `(?!\\s+(?:${entry.notBefore.map(escapeRegExp).join('|')})(?![A-Za-z0-9]))`
        : ''
      const body = escapeRegExp(from).replace(/ /g, '\\s+')
      return {
        from,
        needle: from.toLowerCase().split(' ')[0]!,
        to: entry.to,
        regex: new RegExp(`${LEFT}${body}${RIGHT}${notBefore}`, entry.caseSensitive ? 'g' : 'gi'),
      }
    })
}

function compileGlossary(raw: {
  terms: Record<string, string>
  fronted: Record<string, string>
  dropped: string[]
}): Glossary {
  const terms = new Map(Object.entries(raw.terms))
  const fronted = new Map(Object.entries(raw.fronted))
  const dropped = new Set(raw.dropped)
  const keys = [...terms.keys(), ...fronted.keys(), ...dropped]
  return { terms, fronted, dropped, maxTermLength: Math.max(...keys.map((k) => k.length)) }
}

export const SYNONYMS: readonly SynonymRule[] = compileSynonyms(synonymsJson as { terms: Record<string, SynonymEntry> })
export const GLOSSARY: Glossary = compileGlossary(
  glossaryJson as { terms: Record<string, string>; fronted: Record<string, string>; dropped: string[] },
)
