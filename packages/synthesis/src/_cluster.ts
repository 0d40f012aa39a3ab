import { HAN_CLASS, hasHan } from '@search-layer/core/text'
import { EN_STOPWORDS, flatten, HAN_STOP, type Term, terms } from './_text.js'

// Words that say nothing about a topic on their own: verbs ("adds"), evaluations ("advantages"), and nouns every
// article has ("part", "way", "example"). Never a seed or a label; they may still sit inside a longer phrase.
const GENERIC = new Set(
  (
    'add adds added adding advantage advantages benefit benefits disadvantage disadvantages pro pros con cons ' +
    'part parts way ways thing things lot lots example examples feature features time times year years day days ' +
    'people work works working need needs want wants help helps show shows shown give gives take takes allow allows ' +
    'provide provides include includes including run runs build builds create creates change changes better best ' +
    'good great first last next section chapter question questions answer answers problem problems issue issues ' +
    'solution solutions case cases list type types note notes tip tips step steps option options detail details ' +
    'thing really know known want write written learn learned start started end based look looks find found keep ' +
    'improve improves improved introduce introduces introduced explain explains explained update updates updated ' +
    'matter matters drop drops dropped mean means go goes come comes make makes get gets deep ' +
    'across along among behind beyond inside outside toward towards midway instead already still even ever well ' +
    'often always never usually'
  ).split(' '),
)

/** A key that can name a topic: not generic, not a stop word. Han keys are bigrams and always can. */
function isTopical(key: string): boolean {
  return hasHan(key) || (!GENERIC.has(key) && !EN_STOPWORDS.has(key))
}

/** A result as the clusterer sees it. */
export interface ClusterDoc {
  title: string
  snippet: string
}

/** A cluster: member indexes (ascending) and the terms that label it (display forms). */
export interface Cluster {
  members: number[]
  terms: string[]
  /** True for the catch-all of results that share no salient term with any topic. */
  other: boolean
}

// Separates a result's title from its snippet in `DocTerms.text`; `flatten` removes it from the texts themselves.
const SEGMENT = '\u2029'

interface DocTerms {
  keys: Set<string>
  titleKeys: Set<string>
  text: string
}

/**
 * Greedy topic clustering: repeatedly take the salient term shared by most unassigned results (not a query
 * term, not in nearly every result), make its results a topic, then attach leftovers to the topic they share
 * most terms with. Deterministic: every tie is broken by term key order, members stay in rank order.
 */
export function cluster(docs: readonly ClusterDoc[], query: string, maxGroups: number): Cluster[] {
  const queryKeys = new Set(terms(query).map((t) => t.key))
  const display = new Map<string, string>()
  const info: DocTerms[] = docs.map((d) => {
    const titleTerms = terms(d.title)
    const all: Term[] = [...titleTerms, ...terms(d.snippet)]
    for (const t of all) if (!display.has(t.key)) display.set(t.key, t.display)
    return {
      keys: new Set(all.map((t) => t.key)),
      titleKeys: new Set(titleTerms.map((t) => t.key)),
      // Title and snippet stay apart: a phrase running from a title's last word into the snippet's first is none.
      text: `${flatten(d.title)}${SEGMENT}${flatten(d.snippet)}`,
    }
  })
  const df = new Map<string, number>()
  for (const d of info) for (const k of d.keys) df.set(k, (df.get(k) ?? 0) + 1)
  const n = docs.length
  const salient = (k: string) => !queryKeys.has(k) && (df.get(k) ?? 0) >= 2 && isTopical(k)
  // A term in (almost) every result says nothing about topics; it only becomes a seed when nothing else does.
  const broadCap = Math.max(2, Math.ceil(n * 0.6))

  const unassigned = new Set(docs.map((_, i) => i))
  const clusters: Cluster[] = []
  const seedsUsed = new Set<string>()
  while (clusters.length < maxGroups && unassigned.size >= 2) {
    const counts = new Map<string, { count: number; inTitle: number }>()
    for (const i of unassigned) {
      const d = info[i]!
      for (const k of d.keys) {
        if (!salient(k) || seedsUsed.has(k)) continue
        const c = counts.get(k) ?? { count: 0, inTitle: 0 }
        c.count++
        if (d.titleKeys.has(k)) c.inTitle++
        counts.set(k, c)
      }
    }
    const candidates = [...counts.entries()].filter(([, c]) => c.count >= 2)
    if (candidates.length === 0) break
    const narrow = candidates.filter(([k]) => (df.get(k) ?? 0) <= broadCap)
    const pool = narrow.length > 0 ? narrow : candidates
    pool.sort(
      ([ka, a], [kb, b]) =>
        b.count - a.count ||
        b.inTitle - a.inTitle ||
        Array.from(kb).length - Array.from(ka).length ||
        (ka < kb ? -1 : ka > kb ? 1 : 0),
    )
    const seed = pool[0]![0]
    seedsUsed.add(seed)
    const members = [...unassigned].filter((i) => info[i]!.keys.has(seed)).sort((a, b) => a - b)
    for (const i of members) unassigned.delete(i)
    clusters.push({ members, terms: [seed], other: false })
  }

  // Leftovers join the topic whose members they share most salient terms with; the rest form "other".
  const leftovers: number[] = []
  for (const i of [...unassigned].sort((a, b) => a - b)) {
    let best = -1
    let bestShared = 0
    clusters.forEach((c, ci) => {
      const groupKeys = new Set<string>()
      for (const m of c.members) for (const k of info[m]!.keys) if (salient(k)) groupKeys.add(k)
      let shared = 0
      for (const k of info[i]!.keys) if (groupKeys.has(k)) shared++
      if (shared > bestShared) {
        best = ci
        bestShared = shared
      }
    })
    if (best >= 0 && bestShared >= 1) clusters[best]!.members.push(i)
    else leftovers.push(i)
  }
  for (const c of clusters) c.members.sort((a, b) => a - b)

  // A topic of one result is no topic: it joins "Other results".
  const topics = clusters.filter((c) => c.members.length >= 2)
  for (const c of clusters) if (c.members.length < 2) leftovers.push(...c.members)
  leftovers.sort((a, b) => a - b)
  const labelled = topics.map((c) => ({ ...c, terms: labelTerms(c, info, salient, display) }))
  if (leftovers.length > 0) labelled.push({ members: leftovers, terms: [], other: true })
  // Groups follow their best-ranked result, so the top results never end up at the bottom of the answer.
  labelled.sort((a, b) => a.members[0]! - b.members[0]!)
  return labelled
}

function labelTerms(
  c: Cluster,
  info: DocTerms[],
  salient: (k: string) => boolean,
  display: Map<string, string>,
): string[] {
  const seed = c.terms[0]!
  const counts = new Map<string, number>()
  for (const m of c.members)
    for (const k of info[m]!.keys) if (salient(k) && k !== seed) counts.set(k, (counts.get(k) ?? 0) + 1)
  const need = Math.max(2, Math.ceil(c.members.length * 0.6))
  const extra = [...counts.entries()]
    .filter(([, count]) => count >= need)
    .sort(([ka, a], [kb, b]) => b - a || (ka < kb ? -1 : ka > kb ? 1 : 0))
    .map(([k]) => k)
  const keys = [seed, ...extra]
  const texts = c.members.map((m) => info[m]!.text)
  const out: string[] = []
  for (const k of keys) {
    const shown = hasHan(k) ? extendHan(k, texts) : latinPhrase(display.get(k) ?? k, texts)
    // A bigram already inside a longer Han label adds nothing.
    if (out.some((o) => o.includes(shown) || (hasHan(k) && o.includes(k)))) continue
    // "FAQ, Frequently asked" repeats itself: a phrase sharing a word with an earlier label is left out.
    if (out.some((o) => sharesWord(o, shown))) continue
    if (out.length > 0 && isLoneParticiple(shown)) continue
    out.push(shown)
    if (out.length === 3) break
  }
  return out
}

const PHRASE_WORD = /[\p{L}\p{N}][\p{L}\p{N}+#._-]*[\p{L}\p{N}+#]|[\p{L}\p{N}]/gu

/** Latin word runs of a text: a phrase never crosses the title/snippet boundary or a Han word ("cargo 以及 Tokio"). */
function latinRuns(text: string): string[][] {
  const runs: string[][] = []
  for (const segment of text.split(SEGMENT)) {
    let run: string[] = []
    for (const word of segment.match(PHRASE_WORD) ?? []) {
      if (hasHan(word)) {
        if (run.length > 0) runs.push(run)
        run = []
      } else run.push(word)
    }
    if (run.length > 0) runs.push(run)
  }
  return runs
}

function labelWords(label: string): string[] {
  return hasHan(label) ? [] : label.toLowerCase().split(' ')
}

function sharesWord(a: string, b: string): boolean {
  const words = new Set(labelWords(a))
  return labelWords(b).some((w) => words.has(w))
}

// "collected", "based", "released": a lone past participle reads as a verb, not a topic. Only a second or later
// label is dropped for it; a seed keeps its word because the group needs a name.
function isLoneParticiple(label: string): boolean {
  return /^[a-z]{3,}(?<!e)ed$/i.test(label)
}

/**
 * A phrase of two or three words around `word` that at least two members share, every word topical (no stop
 * word, verb or filler: "work-stealing scheduler", not "the scheduler"); the word itself when no phrase is
 * shared. Ties: more members, then fewer words, then longer, then alphabetical, so the label is deterministic.
 */
function latinPhrase(word: string, texts: readonly string[]): string {
  const target = word.toLowerCase()
  const counts = new Map<string, { members: number; shown: string }>()
  for (const text of texts) {
    const seen = new Set<string>()
    for (const words of latinRuns(text)) countSpansAround(words, target, seen, counts)
  }
  const shared = [...counts.entries()].filter(([, c]) => c.members >= 2)
  if (shared.length === 0) return word
  shared.sort(
    ([ka, a], [kb, b]) =>
      b.members - a.members ||
      ka.split(' ').length - kb.split(' ').length ||
      kb.length - ka.length ||
      (ka < kb ? -1 : ka > kb ? 1 : 0),
  )
  return shared[0]![1].shown
}

/** Counts, once per member (`seen`), each 2–3 word topical span of `words` that contains `target`. */
function countSpansAround(
  words: readonly string[],
  target: string,
  seen: Set<string>,
  counts: Map<string, { members: number; shown: string }>,
): void {
  for (let i = 0; i < words.length; i++) {
    if (words[i]!.toLowerCase() !== target) continue
    for (let start = Math.max(0, i - 2); start <= i; start++) {
      for (let end = Math.max(i + 1, start + 2); end <= Math.min(words.length, start + 3); end++) {
        const span = words.slice(start, end)
        if (!span.every((w) => isTopical(w.toLowerCase()))) continue
        const key = span.join(' ').toLowerCase()
        if (seen.has(key)) continue
        seen.add(key)
        const c = counts.get(key) ?? { members: 0, shown: span.join(' ') }
        c.members++
        counts.set(key, c)
      }
    }
  }
}

const HAN_CHAR = new RegExp(`^[${HAN_CLASS}]$`, 'u')

// Grows a Han bigram to the longest run every member containing it agrees on ("运行" → "运行时"), up to 6 chars.
function extendHan(bigram: string, texts: readonly string[]): string {
  let label = bigram
  const holders = texts.filter((t) => t.includes(bigram))
  for (let step = 0; step < 4; step++) {
    const grown = grow(label, holders, 'right') ?? grow(label, holders, 'left')
    if (!grown) break
    label = grown
  }
  return label
}

function grow(label: string, texts: readonly string[], side: 'left' | 'right'): string | undefined {
  let common: string | undefined
  for (const t of texts) {
    const at = t.indexOf(label)
    const ch = side === 'right' ? t[at + label.length] : t[at - 1]
    if (!ch || !HAN_CHAR.test(ch) || HAN_STOP.has(ch)) return undefined
    if (common === undefined) common = ch
    else if (common !== ch) return undefined
  }
  if (common === undefined) return undefined
  return side === 'right' ? label + common : common + label
}
