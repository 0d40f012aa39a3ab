import { canonicalUrl } from '@search-layer/core'
import { fencedCodeRanges, htmlCommentRanges, markInlineCode, markdownLinks, trimUrl } from './_scan.js'
import { REF_TYPES, type Ref, type RefType } from './types.js'

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
const RANK = new Map<RefType, number>(REF_TYPES.map((type, i) => [type, i]))

// GitHub's own limits: owner 1-39 alphanumerics or inner single hyphens, repo 1-100 of [\w.-], number up to 10 digits.
const OWNER = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,37}[A-Za-z0-9])?'
const REPO = '[\\w.-]{1,100}'
const ISSUE_RE = new RegExp(`(?<![\\w./&#@-])(?:(${OWNER})/(${REPO}))?#([1-9]\\d{0,9})(?![\\w-])`, 'g')
const GH_RE = /(?<![\w-])GH-([1-9]\d{0,9})(?![\w-])/g
const REPO_SHA_RE = new RegExp(`(?<![\\w./-])(${OWNER})/(${REPO})@([0-9a-f]{7,40})(?![\\w-])`, 'g')
const SHA_RE = /(?<![\w\-./@#:=&%+])[0-9a-f]{7,40}(?![\w-]|\.\w)/g
const AUTOLINK_RE = /<(https?:\/\/[^\s<>]+)>/g
const PLAIN_URL_RE = /https?:\/\/[^\s<>"'`]+/g
// Keywords are looked for in the text just before a reference, never further back than this.
const KEYWORD_WINDOW_CHARS = 60

const CLOSING_RE = /\b(close[sd]?|fix(?:e[sd])?|resolve[sd]?)\s*:?\s*$/i
const DUPLICATE_RE = /\b(?:duplicate|dup(?:e|licate)?)\s+of\s*:?\s*$/i
const RELATED_RE = /\b(?:relat(?:ed|es)\s+(?:to\s+)?|see\s+also\s*:?\s*)$/i

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

/**
 * Finds typed references in text (GitHub issue/PR/commit references, closing keywords, duplicates, links)
 * and returns them deduplicated by canonical key, the most specific type winning. Pure; never throws.
 */
export function extractRefs(text: string, options: ExtractRefsOptions = {}): Ref[] {
  return mergeRefs(findRefs(typeof text === 'string' ? text : '', options))
}

/**
 * A text with more matches of one kind than this (links, URLs, `#N`, SHAs) is not written to be read: only its
 * first ones of that kind are read, and only its first this many references are kept. Each reference costs
 * 10-50 µs (URL parsing, context, keywords) on the calling thread: a 390 KB body of `#1 ` held it for 2.4 s.
 */
export const MAX_REFS_PER_TEXT = 1000

/**
 * Longer URLs are not read as references: Apache and nginx refuse request lines past 8 KB by default, and
 * parsing one URL of 1 MiB (a run of `/` or `)` after `https://`) took 300 ms.
 */
const MAX_URL_CHARS = 8192

/** One text being read: what is code, what already belongs to a reference, and what was found. */
interface Scan {
  text: string
  hosts: readonly string[]
  repo: string | undefined
  found: Found[]
  code: Uint8Array
  taken: Uint8Array
}

/**
 * Every reference occurrence in one text, in order, not yet deduplicated; at most `MAX_REFS_PER_TEXT` of them,
 * from at most that many matches of each kind, so a text of any size is read in bounded time.
 */
export function findRefs(text: string, options: ExtractRefsOptions = {}): Ref[] {
  const contextChars = options.contextChars ?? 80
  const source = options.source ?? 'body'
  const scan = startScan(text, options)
  findLinks(scan)
  findShorthands(scan)
  const found = scan.found.sort((a, b) => a.start - b.start).slice(0, MAX_REFS_PER_TEXT)
  return found.map((f) => ({
    type: keywordType(text, f),
    ...(f.url !== undefined && { url: f.url }),
    key: f.key,
    text: f.text,
    context: contextOf(text, f.start, f.end, contextChars),
    ...(f.repo !== undefined && { repo: f.repo }),
    ...(f.number !== undefined && { number: f.number }),
    ...(f.sha !== undefined && { sha: f.sha }),
    source,
    count: 1,
  }))
}

function startScan(text: string, options: ExtractRefsOptions): Scan {
  const hosts = (options.githubHosts ?? DEFAULT_GITHUB_HOSTS).map((h) => h.toLowerCase())
  const repo = options.repo && /^[^/\s]+\/[^/\s]+$/.test(options.repo) ? options.repo : undefined
  // Which characters are code and which already belong to a reference. A match is checked against its own
  // characters only, and the matches of one pattern never overlap, so the checks stay linear in the text.
  const code = new Uint8Array(text.length)
  markInlineCode(text, code)
  for (const ranges of [fencedCodeRanges(text), htmlCommentRanges(text)])
    for (const [start, end] of ranges) code.fill(1, start, end)
  return { text, hosts, repo, found: [], code, taken: new Uint8Array(text.length) }
}

/** The first `MAX_REFS_PER_TEXT` matches of a global pattern. */
function* firstMatches(text: string, re: RegExp): Generator<RegExpExecArray> {
  let count = 0
  for (const m of text.matchAll(re)) {
    yield m
    if (++count >= MAX_REFS_PER_TEXT) return
  }
}

/** Markdown links, autolinks and bare URLs, each kept only where no earlier kind already took its characters. */
function findLinks(scan: Scan): void {
  const { text, taken } = scan
  const addUrl = (raw: string, label: string, start: number, end: number) => {
    if (raw.length > MAX_URL_CHARS) return
    const ref = classifyUrl(raw, scan.hosts)
    if (!ref) return
    scan.found.push({ ...ref, text: label, start, end })
    taken.fill(1, start, end)
  }
  for (const link of markdownLinks(text, MAX_REFS_PER_TEXT)) {
    const label = link.label.trim()
    addUrl(link.url, label === '' ? link.url : label, link.start, link.end)
  }
  for (const m of firstMatches(text, AUTOLINK_RE)) {
    if (marked(taken, m.index, m.index + m[0].length)) continue
    addUrl(m[1]!, m[1]!, m.index, m.index + m[0].length)
  }
  for (const m of firstMatches(text, PLAIN_URL_RE)) {
    const url = trimUrl(m[0])
    if (url.length <= 'https://'.length || marked(taken, m.index, m.index + url.length)) continue
    addUrl(url, url, m.index, m.index + url.length)
  }
}

/** `owner/repo@sha`, `#N` and `owner/repo#N`, and with a repository `GH-N` and bare SHAs, outside code and links. */
function findShorthands(scan: Scan): void {
  const { text, taken, found, repo } = scan
  const blocked = (start: number, end: number) => marked(taken, start, end) || marked(scan.code, start, end)
  for (const m of firstMatches(text, REPO_SHA_RE)) {
    const [, owner, name, sha] = m as unknown as [string, string, string, string]
    if (blocked(m.index, m.index + m[0].length) || !validRepo(name)) continue
    found.push(commitRef(`${owner}/${name}`, sha, m[0], m.index, m.index + m[0].length))
    taken.fill(1, m.index, m.index + m[0].length)
  }
  for (const m of firstMatches(text, ISSUE_RE)) {
    const [, owner, name, num] = m as unknown as [string, string | undefined, string | undefined, string]
    if (blocked(m.index, m.index + m[0].length)) continue
    if (name !== undefined && !validRepo(name)) continue
    const target = owner && name ? `${owner}/${name}` : repo
    found.push(issueRef(target, Number(num), m[0], m.index, m.index + m[0].length))
  }
  if (!repo) return
  for (const m of firstMatches(text, GH_RE)) {
    if (blocked(m.index, m.index + m[0].length)) continue
    found.push(issueRef(repo, Number(m[1]), m[0], m.index, m.index + m[0].length))
  }
  for (const m of firstMatches(text, SHA_RE)) {
    const sha = m[0]
    // A 24-hex string is a MongoDB ObjectId, not a commit; all-digit or all-letter runs are numbers or words.
    if (sha.length === 24 || !/\d/.test(sha) || !/[a-f]/.test(sha)) continue
    if (blocked(m.index, m.index + sha.length) || isUuidPart(text, m.index, sha.length)) continue
    found.push(commitRef(repo, sha, sha, m.index, m.index + sha.length))
  }
}

/**
 * Deduplicates references by key: the most specific type wins (its text, context and source are kept),
 * titles and states learnt from any occurrence are kept, and `count` sums the occurrences. Order of first sight.
 */
export function mergeRefs(refs: readonly Ref[]): Ref[] {
  const byKey = new Map<string, Ref>()
  for (const ref of refs) {
    const seen = byKey.get(ref.key)
    if (!seen) {
      byKey.set(ref.key, { ...ref })
      continue
    }
    const count = seen.count + ref.count
    const moreSpecific = rank(ref.type) < rank(seen.type)
    const merged: Ref = moreSpecific ? { ...seen, ...ref, count } : { ...ref, ...seen, count }
    // A /pull/ URL tells us what a bare #N could not.
    if (seen.url?.includes('/pull/') || ref.url?.includes('/pull/'))
      merged.url = [seen.url, ref.url].find((u) => u?.includes('/pull/'))
    if (merged.type === 'issue' && merged.url?.includes('/pull/')) merged.type = 'pr'
    byKey.set(ref.key, merged)
  }
  return [...byKey.values()]
}

/** A reference for one link whose anchor text and context are already known (page links). */
export function linkRef(
  url: string,
  text: string,
  context: string,
  source: string,
  githubHosts: readonly string[] = DEFAULT_GITHUB_HOSTS,
): Ref | undefined {
  const ref = classifyUrl(url, githubHosts)
  if (!ref) return undefined
  return { ...ref, text: text.trim() || url, context: context.replace(/\s+/g, ' ').trim(), source, count: 1 }
}

function rank(type: RefType): number {
  return RANK.get(type) ?? REF_TYPES.length
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
  // The line so far, at most the window: searching back to the line's start would re-read a long line per reference.
  const window = text.slice(Math.max(0, f.start - KEYWORD_WINDOW_CHARS), f.start)
  const before = window.slice(window.lastIndexOf('\n') + 1).replace(/[*_]+/g, '')
  if (DUPLICATE_RE.test(before)) return 'duplicate'
  const closing = CLOSING_RE.exec(before)?.[1]?.toLowerCase()
  if (closing?.startsWith('fix')) return 'fixes'
  if (closing?.startsWith('close')) return 'closes'
  if (closing?.startsWith('resolve')) return 'resolves'
  if (RELATED_RE.test(before)) return 'related'
  return f.type
}

function isUuidPart(text: string, start: number, length: number): boolean {
  return text[start - 1] === '-' || text[start + length] === '-'
}

/** Whether any character in `[start, end)` is marked. */
function marked(marks: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (marks[i] === 1) return true
  return false
}

function contextOf(text: string, start: number, end: number, chars: number): string {
  const from = Math.max(0, start - chars)
  const to = Math.min(text.length, end + chars)
  const inner = text.slice(from, to).replace(/\s+/g, ' ').trim()
  return `${from > 0 ? '…' : ''}${inner}${to < text.length ? '…' : ''}`
}
