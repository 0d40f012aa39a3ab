// The reference extractor as it was before its scans were made linear (regexes that backtrack, quadratic trims
// and overlap checks), kept verbatim so property tests can hold the new scanners to the same output on ordinary text.
// Never used outside tests.
import { canonicalUrl } from '@search-layer/core'
import type { Ref, RefType } from '../src/types.js'

/** Options of `extractRefs`. */
export interface ExtractRefsOptions {
  /** `owner/repo` the text belongs to: resolves `#123`, `GH-123` and bare SHAs (which are only recognised with it). */
  repo?: string
  /** Characters of context kept on each side of a reference. Default 80. */
  contextChars?: number
  /** Where the text came from, copied into `Ref.source`. Default `body`. */
  source?: string
  /** Host names that serve GitHub pages. Default `github.com`, `www.github.com`. */
  githubHosts?: readonly string[]
}

const DEFAULT_GITHUB_HOSTS = ['github.com', 'www.github.com']

// GitHub's own limits: owner 1-39 alphanumerics or inner single hyphens, repo 1-100 of [\w.-], number up to 10 digits.
const OWNER = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,37}[A-Za-z0-9])?'
const REPO = '[\\w.-]{1,100}'
const ISSUE_RE = new RegExp(`(?<![\\w./&#@-])(?:(${OWNER})/(${REPO}))?#([1-9]\\d{0,9})(?![\\w-])`, 'g')
const GH_RE = /(?<![\w-])GH-([1-9]\d{0,9})(?![\w-])/g
const REPO_SHA_RE = new RegExp(`(?<![\\w./-])(${OWNER})/(${REPO})@([0-9a-f]{7,40})(?![\\w-])`, 'g')
const SHA_RE = /(?<![\w\-./@#:=&%+])[0-9a-f]{7,40}(?![\w-]|\.\w)/g
const MD_LINK_RE =
  /\[([^\]\n]{0,500})\]\(\s*<?(https?:\/\/[^\s()<>]*(?:\([^\s()<>]*\)[^\s()<>]*)*)>?(?:\s+(?:"[^"\n]*"|'[^'\n]*'))?\s*\)/g
const AUTOLINK_RE = /<(https?:\/\/[^\s<>]+)>/g
const PLAIN_URL_RE = /https?:\/\/[^\s<>"'`]+/g
const CODE_RES = [
  /^ {0,3}(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:^ {0,3}\1[^\n]*$|(?![\s\S]))/gm,
  /`[^`\n]+`/g,
  /<!--[\s\S]*?-->/g,
]

const CLOSING_RE = /\b(close[sd]?|fix(?:e[sd])?|resolve[sd]?)\s*:?\s*$/i
const DUPLICATE_RE = /\b(?:duplicate|dup(?:e|licate)?)\s+of\s*:?\s*$/i
const RELATED_RE = /\b(?:relat(?:ed|es)\s+(?:to\s+)?|see\s+also\s*:?\s*)$/i

type Range = readonly [number, number]

interface Found {
  type: RefType
  url?: string
  key: string
  text: string
  start: number
  end: number
  repo?: string
  number?: number
  sha?: string
}

/** Every reference occurrence in one text, in order, not yet deduplicated. */
export function findRefs(text: string, options: ExtractRefsOptions = {}): Ref[] {
  const contextChars = options.contextChars ?? 80
  const source = options.source ?? 'body'
  const hosts = (options.githubHosts ?? DEFAULT_GITHUB_HOSTS).map((h) => h.toLowerCase())
  const repo = options.repo && /^[^/\s]+\/[^/\s]+$/.test(options.repo) ? options.repo : undefined
  const found: Found[] = []
  const code = rangesOf(text, CODE_RES)
  const taken: Range[] = []

  const addUrl = (raw: string, label: string, start: number, end: number) => {
    const ref = classifyUrl(raw, hosts)
    if (!ref) return
    found.push({ ...ref, text: label, start, end })
    taken.push([start, end])
  }

  for (const m of text.matchAll(MD_LINK_RE)) {
    const label = m[1]!.trim()
    addUrl(m[2]!, label === '' ? m[2]! : label, m.index, m.index + m[0].length)
  }
  for (const m of text.matchAll(AUTOLINK_RE)) {
    if (overlaps(taken, m.index, m.index + m[0].length)) continue
    addUrl(m[1]!, m[1]!, m.index, m.index + m[0].length)
  }
  for (const m of text.matchAll(PLAIN_URL_RE)) {
    const url = trimUrl(m[0])
    if (url.length <= 'https://'.length || overlaps(taken, m.index, m.index + url.length)) continue
    addUrl(url, url, m.index, m.index + url.length)
  }

  const blocked = (start: number, end: number) => overlaps(taken, start, end) || overlaps(code, start, end)

  for (const m of text.matchAll(REPO_SHA_RE)) {
    const [, owner, name, sha] = m as unknown as [string, string, string, string]
    if (blocked(m.index, m.index + m[0].length) || !validRepo(name)) continue
    found.push(commitRef(`${owner}/${name}`, sha, m[0], m.index, m.index + m[0].length))
    taken.push([m.index, m.index + m[0].length])
  }
  for (const m of text.matchAll(ISSUE_RE)) {
    const [, owner, name, num] = m as unknown as [string, string | undefined, string | undefined, string]
    if (blocked(m.index, m.index + m[0].length)) continue
    if (name !== undefined && !validRepo(name)) continue
    const target = owner && name ? `${owner}/${name}` : repo
    found.push(issueRef(target, Number(num), m[0], m.index, m.index + m[0].length))
  }
  if (repo) {
    for (const m of text.matchAll(GH_RE)) {
      if (blocked(m.index, m.index + m[0].length)) continue
      found.push(issueRef(repo, Number(m[1]), m[0], m.index, m.index + m[0].length))
    }
    for (const m of text.matchAll(SHA_RE)) {
      const sha = m[0]
      // A 24-hex string is a MongoDB ObjectId, not a commit; all-digit or all-letter runs are numbers or words.
      if (sha.length === 24 || !/\d/.test(sha) || !/[a-f]/.test(sha)) continue
      if (blocked(m.index, m.index + sha.length) || isUuidPart(text, m.index, sha.length)) continue
      found.push(commitRef(repo, sha, sha, m.index, m.index + sha.length))
    }
  }

  found.sort((a, b) => a.start - b.start)
  return found.map((f) => {
    const type = keywordType(text, f)
    return {
      type,
      ...(f.url !== undefined && { url: f.url }),
      key: f.key,
      text: f.text,
      context: contextOf(text, f.start, f.end, contextChars),
      ...(f.repo !== undefined && { repo: f.repo }),
      ...(f.number !== undefined && { number: f.number }),
      ...(f.sha !== undefined && { sha: f.sha }),
      source,
      count: 1,
    }
  })
}

/** Parses a GitHub issue/PR/commit/compare URL, else a plain URL reference. */
function classifyUrl(raw: string, hosts: readonly string[]): Omit<Found, 'text' | 'start' | 'end'> | undefined {
  let u: URL
  try {
    u = new URL(raw)
  } catch {
    return undefined
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined
  if (hosts.includes(u.hostname.toLowerCase())) {
    const parts = u.pathname.split('/').filter(Boolean)
    const [owner, name, kind, id, sub, subId] = parts
    if (owner && name && kind && id) {
      const repo = `${owner}/${name}`
      if ((kind === 'issues' || kind === 'pull') && /^[1-9]\d{0,9}$/.test(id)) {
        if (kind === 'pull' && sub === 'commits' && subId && /^[0-9a-f]{7,40}$/i.test(subId))
          return commitRef(repo, subId.toLowerCase(), '', 0, 0)
        const ref = issueRef(repo, Number(id), '', 0, 0)
        return kind === 'pull' ? { ...ref, type: 'pr', url: `https://github.com/${repo}/pull/${id}` } : ref
      }
      if (kind === 'commit' && /^[0-9a-f]{7,40}$/i.test(id)) return commitRef(repo, id.toLowerCase(), '', 0, 0)
      if (kind === 'compare') {
        const range = decodeURIComponent(parts.slice(3).join('/'))
        return {
          type: 'commit',
          url: `https://github.com/${repo}/compare/${range}`,
          key: `github:${repo.toLowerCase()}@${range}`,
          repo,
        }
      }
    }
  }
  return { type: 'url', url: u.href, key: canonicalUrl(u.href) }
}

function issueRef(repo: string | undefined, number: number, text: string, start: number, end: number): Found {
  if (!repo) return { type: 'issue', key: `issue:#${number}`, text, start, end, number }
  return {
    type: 'issue',
    url: `https://github.com/${repo}/issues/${number}`,
    key: `github:${repo.toLowerCase()}#${number}`,
    text,
    start,
    end,
    repo,
    number,
  }
}

function commitRef(repo: string, sha: string, text: string, start: number, end: number): Found {
  return {
    type: 'commit',
    url: `https://github.com/${repo}/commit/${sha}`,
    key: `github:${repo.toLowerCase()}@${sha}`,
    text,
    start,
    end,
    repo,
    sha,
  }
}

function validRepo(name: string): boolean {
  return name !== '.' && name !== '..'
}

/** Closing keyword, "duplicate of" or "related to" right before a reference makes it that type. */
function keywordType(text: string, f: Found): RefType {
  if (f.type !== 'issue' && f.type !== 'pr') return f.type
  const lineStart = text.lastIndexOf('\n', f.start - 1) + 1
  const before = text.slice(Math.max(lineStart, f.start - 60), f.start).replace(/[*_]+/g, '')
  if (DUPLICATE_RE.test(before)) return 'duplicate'
  const closing = CLOSING_RE.exec(before)?.[1]?.toLowerCase()
  if (closing?.startsWith('fix')) return 'fixes'
  if (closing?.startsWith('close')) return 'closes'
  if (closing?.startsWith('resolve')) return 'resolves'
  if (RELATED_RE.test(before)) return 'related'
  return f.type
}

/** Drops trailing punctuation and unbalanced closing brackets, which belong to the sentence, not the URL. */
function trimUrl(url: string): string {
  let out = url
  for (;;) {
    const last = out.at(-1)
    if (last === undefined) return out
    if ('.,:;!?*_~\'"'.includes(last)) {
      out = out.slice(0, -1)
      continue
    }
    const pair = last === ')' ? '(' : last === ']' ? '[' : last === '}' ? '{' : undefined
    if (pair && count(out, pair) < count(out, last)) {
      out = out.slice(0, -1)
      continue
    }
    return out
  }
}

function count(text: string, char: string): number {
  let n = 0
  for (const c of text) if (c === char) n++
  return n
}

function isUuidPart(text: string, start: number, length: number): boolean {
  return text[start - 1] === '-' || text[start + length] === '-'
}

function rangesOf(text: string, patterns: readonly RegExp[]): Range[] {
  const out: Range[] = []
  for (const re of patterns) for (const m of text.matchAll(re)) out.push([m.index, m.index + m[0].length])
  return out
}

function overlaps(ranges: readonly Range[], start: number, end: number): boolean {
  return ranges.some(([s, e]) => start < e && end > s)
}

function contextOf(text: string, start: number, end: number, chars: number): string {
  const from = Math.max(0, start - chars)
  const to = Math.min(text.length, end + chars)
  const inner = text.slice(from, to).replace(/\s+/g, ' ').trim()
  return `${from > 0 ? '…' : ''}${inner}${to < text.length ? '…' : ''}`
}
