import { CJK_CLASS, hasCjk, isChinese } from '@search-layer/core/text'
import { CORPUS, type CorpusDoc } from './corpus-data.js'
import { DAY_MS, hashInt } from './_util.js'

/** A search vendor of the emulator. */
export type SearchVendor = 'brave' | 'exa' | 'tavily' | 'grok'

/** A ranked document for one query, with its relevance in [0, 1]. */
export interface RankedDoc extends CorpusDoc {
  score: number
  /** True for padding documents generated from the query hash. */
  generated: boolean
}

/** Filters every vendor understands in some form. */
export interface CorpusQueryOptions {
  /** How many documents to return (padding with generated ones when the corpus has too few matches). */
  count?: number
  /** Skip this many from the top (pagination). */
  offset?: number
  /** The vendor asking: drops documents only another vendor finds, and reorders slightly. */
  vendor?: SearchVendor
  includeDomains?: string[]
  excludeDomains?: string[]
  /** Inclusive lower bound on the published date. */
  after?: Date
  /** Inclusive upper bound on the published date. */
  before?: Date
  /** The clock, for generated documents' dates. */
  now?: Date
}

// Not core's ENGLISH_STOP_WORDS: the emulator's ranking is a fixture that tests across the house assert, so its
// words stay fixed here (and add what a search engine ignores in a query: search, web, results, json…).
const STOPWORDS = new Set(
  'a an and are as at be by for from how in is it of on or that the this to what when where which who why with vs versus do does i me my you your search web find latest about return results json give list'.split(
    ' ',
  ),
)

const CJK_RUN = new RegExp(`[${CJK_CLASS}]+`, 'gu')

/** Splits a query into match terms: lower-cased words, plus CJK bigrams for substring matching. */
export function queryTerms(query: string): string[] {
  const terms = new Set<string>()
  for (const token of query.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}.+#_-]*/gu) ?? []) {
    const word = token.replace(/[.-]+$/, '')
    if (hasCjk(word)) {
      for (const [run] of word.matchAll(CJK_RUN)) {
        const chars = Array.from(run)
        if (chars.length === 1) terms.add(run)
        for (let i = 0; i + 2 <= chars.length; i++) terms.add(chars[i]! + chars[i + 1]!)
      }
      for (const latin of word.split(CJK_RUN)) {
        if (latin.length > 1 && !STOPWORDS.has(latin)) terms.add(latin)
      }
    } else if (word.length > 1 && !STOPWORDS.has(word)) {
      terms.add(word)
    }
  }
  return [...terms]
}

/** Host of a URL without a leading `www.`. */
export function bareHost(url: string): string {
  return new URL(url).hostname.replace(/^www\./, '')
}

/** True when the URL's host is the domain or one of its subdomains. */
export function hostMatches(url: string, domain: string): boolean {
  const host = bareHost(url)
  const d = domain
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\//, '')
    .replace(/\/.*$/, '')
    .replace(/^www\./, '')
  return host === d || host.endsWith(`.${d}`)
}

interface Field {
  text: string
  /** Its maximal runs of letters and digits. */
  words: Set<string>
}

type Matcher = (field: Field) => boolean

const matchers = new Map<string, Matcher>()
const WORD_RUNS = /[^\p{L}\p{N}]+/u
const PLAIN_WORD = /^[\p{L}\p{N}]+$/u

function field(text: string): Field {
  return { text, words: new Set(text.split(WORD_RUNS)) }
}

// Latin terms match whole words (so "bun" does not hit "Ubuntu"), with a naive plural; CJK terms match substrings.
function matcher(term: string): Matcher {
  let m = matchers.get(term)
  if (!m) {
    if (hasCjk(term)) m = (f) => f.text.includes(term)
    else {
      const stem = term.length > 3 && term.endsWith('s') ? term.slice(0, -1) : term
      if (PLAIN_WORD.test(stem)) {
        // A bounded match of letters and digits only is a whole word: look it up instead of scanning the text.
        const forms = [stem, `${stem}s`, `${stem}es`]
        m = (f) => f.words.has(forms[0]!) || f.words.has(forms[1]!) || f.words.has(forms[2]!)
      } else {
        const re = new RegExp(
          `(?<![\\p{L}\\p{N}])${stem.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:s|es)?(?![\\p{L}\\p{N}])`,
          'u',
        )
        m = (f) => re.test(f.text)
      }
    }
    // Unique queries (the server bench sends one per request) must not grow this without bound.
    if (matchers.size >= 10_000) matchers.clear()
    matchers.set(term, m)
  }
  return m
}

/** Splits text into sentences without breaking version numbers like "v1.34". */
export function sentences(text: string): string[] {
  return text.split(/(?<=[.!?])\s+(?=[A-Z0-9"“(])|(?<=[。！？])/).filter((s) => s.trim().length > 0)
}

// Every request scores the whole corpus: lower-case each document once, not once per request.
const lowered = new WeakMap<CorpusDoc, { title: Field; text: Field; url: Field }>()

function lowerCased(doc: CorpusDoc): { title: Field; text: Field; url: Field } {
  let lower = lowered.get(doc)
  if (lower === undefined) {
    lower = {
      title: field(doc.title.toLowerCase()),
      text: field(doc.text.toLowerCase()),
      url: field(doc.url.toLowerCase()),
    }
    lowered.set(doc, lower)
  }
  return lower
}

function scoreDoc(doc: CorpusDoc, terms: string[]): number {
  if (terms.length === 0) return 0
  const { title, text, url } = lowerCased(doc)
  let score = 0
  let matched = 0
  for (const term of terms) {
    const has = matcher(term)
    let hit = 0
    if (has(title)) hit += 3
    if (has(text)) hit += 1
    if (has(url)) hit += 1
    if (hit > 0) matched++
    score += hit
  }
  // Coverage matters more than repetition: a doc matching every term beats one matching one term often.
  return matched === 0 ? 0 : (matched / terms.length) * 0.7 + Math.min(score / (terms.length * 5), 1) * 0.3
}

const PAD_HOSTS = [
  'blog.example-dev.io',
  'engineering.acme-corp.com',
  'notes.devjournal.net',
  'www.codeguild.org',
  'tech.pixelforge.co',
  'medium.com',
  'dev.to',
  'hashnode.dev',
]
const PAD_TEMPLATES = [
  (q: string) => [
    `${q}: a practical guide`,
    `A practical guide to ${q}, with examples, pitfalls and a checklist for production use.`,
  ],
  (q: string) => [
    `What I learned about ${q} after a year`,
    `Lessons learned using ${q} in a real project: what worked, what broke and what we would do again.`,
  ],
  (q: string) => [
    `${q} explained in 10 minutes`,
    `A short explainer on ${q} for busy engineers, covering the core ideas and common misconceptions.`,
  ],
  (q: string) => [
    `Benchmarks and notes: ${q}`,
    `Measurements and notes on ${q}, including setup, methodology and raw numbers.`,
  ],
  (q: string) => [`${q} – FAQ`, `Frequently asked questions about ${q}, collected from forums and issue trackers.`],
]

function slugify(text: string): string {
  const slug = text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48)
  return encodeURI(slug || 'post')
}

function generatedDoc(query: string, index: number, options: CorpusQueryOptions): RankedDoc {
  const seed = hashInt(`${query}\u0000${index}`)
  const topic = query.trim().replace(/\s+/g, ' ').slice(0, 60) || 'web search'
  const hosts = options.includeDomains?.length
    ? options.includeDomains.map((d) => d.replace(/^https?:\/\//, '').replace(/\/.*$/, ''))
    : PAD_HOSTS.filter((h) => !options.excludeDomains?.some((d) => hostMatches(`https://${h}/`, d)))
  const host = hosts[seed % hosts.length] ?? 'blog.example-dev.io'
  const template = PAD_TEMPLATES[seed % PAD_TEMPLATES.length]!
  const [title, text] = template(topic) as [string, string]
  const now = (options.now ?? new Date('2026-11-20T12:00:00Z')).getTime()
  const latest = Math.min(options.before?.getTime() ?? now, now)
  const earliest = options.after?.getTime() ?? latest - 400 * DAY_MS
  const span = Math.max(latest - earliest, 0)
  const published = new Date(latest - (span === 0 ? 0 : (seed % 997) * (span / 997)))
  published.setUTCSeconds(0, 0)
  return {
    url: `https://${host}/posts/${slugify(topic)}-${(seed % 0xfffff).toString(16)}`,
    title,
    text,
    publishedAt: published.toISOString(),
    author: null,
    language: isChinese(topic) ? 'zh' : 'en',
    score: 0.05 + ((seed % 100) / 100) * 0.1,
    generated: true,
  }
}

function passes(doc: CorpusDoc, options: CorpusQueryOptions): boolean {
  if (options.vendor && doc.only && doc.only !== options.vendor) return false
  if (options.includeDomains?.length && !options.includeDomains.some((d) => hostMatches(doc.url, d))) return false
  if (options.excludeDomains?.some((d) => hostMatches(doc.url, d))) return false
  const t = Date.parse(doc.publishedAt)
  if (options.after && t < options.after.getTime()) return false
  if (options.before && t > options.before.getTime()) return false
  return true
}

/**
 * Ranks the corpus for a query by term overlap (CJK by bigram substring) and pads with
 * documents generated from a stable hash of the query, so every query yields `count` results
 * and the same query always yields the same list.
 */
export function corpusFor(query: string, options: CorpusQueryOptions = {}): RankedDoc[] {
  const count = options.count ?? 10
  const offset = options.offset ?? 0
  const terms = queryTerms(query)
  const matches: RankedDoc[] = []
  for (const doc of CORPUS) {
    if (!passes(doc, options)) continue
    const score = scoreDoc(doc, terms)
    if (score > 0) matches.push({ ...doc, score, generated: false })
  }
  matches.sort((a, b) => b.score - a.score || a.url.localeCompare(b.url))
  if (options.vendor) jitter(matches, `${options.vendor}\u0000${query}`)
  const wanted = offset + count
  const out: RankedDoc[] = matches.slice(0, wanted)
  for (let i = 0; out.length < wanted; i++) out.push(generatedDoc(query, i, options))
  return out.slice(offset, wanted)
}

// Vendors agree on the top documents but not on the exact order: swap a few neighbours per vendor.
function jitter(docs: RankedDoc[], seed: string): void {
  for (let i = 0; i + 1 < docs.length; i++) {
    if (hashInt(`${seed}\u0000${i}`) % 3 === 0) {
      const a = docs[i]!
      docs[i] = docs[i + 1]!
      docs[i + 1] = a
      i++
    }
  }
}

/** The URL as a vendor reports it: brave adds `www.` and a trailing slash, tavily UTM parameters, grok a fragment, exa the plain URL. */
export function vendorUrl(url: string, vendor: SearchVendor): string {
  const u = new URL(url)
  switch (vendor) {
    case 'brave': {
      if (u.hostname.split('.').length === 2) u.hostname = `www.${u.hostname}`
      if (!u.pathname.endsWith('/') && !/\.[a-z0-9]+$/i.test(u.pathname) && !u.search) u.pathname = `${u.pathname}/`
      return u.toString()
    }
    case 'tavily':
      u.searchParams.append('utm_source', 'tavily')
      u.searchParams.append('utm_medium', 'api')
      return u.toString()
    case 'grok':
      if (!u.hash) u.hash = 'overview'
      return u.toString()
    default:
      return url
  }
}

/** The first sentence-sized excerpt of a document's text containing a query term (or its start). */
export function snippet(doc: CorpusDoc, query: string, maxChars = 240): string {
  const all = sentences(doc.text)
  const terms = queryTerms(query)
  const best =
    all.find((s) => {
      const sentence = field(s.toLowerCase())
      return terms.some((t) => matcher(t)(sentence))
    }) ??
    all[0] ??
    doc.text
  return best.length > maxChars ? `${best.slice(0, maxChars - 1)}…` : best
}
