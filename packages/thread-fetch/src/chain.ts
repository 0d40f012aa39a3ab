import { type Env, ProviderError, canonicalUrl } from '@search-layer/core'
import { chatCompletion, extractJsonObject, timeoutSignal } from '@search-layer/core/http'
import { ENGLISH_STOP_WORDS, hasHan, hasKana } from '@search-layer/core/text'
import { z } from 'zod'
import { errorJson, toThreadError } from './_errors.js'
import { parseGithubUrl } from './_github-url.js'
import { mapLimit } from './_limit.js'
import type { FetchThreadOptions } from './_options.js'
import { fetchThread } from './fetch-thread.js'
import type { Ref, RefType, ThreadError, ThreadType } from './types.js'

/** A reference a node could follow, with its built-in relevance score. */
export interface ChainCandidate {
  url: string
  type: RefType
  text: string
  context: string
  title?: string
  repo?: string
  /** 0..1: query-term overlap, type prior and same-repository preference. */
  score: number
}

/** What an LLM gate sees for one node. */
export interface ChainGateInput {
  query: string
  node: { url: string; title: string; depth: number }
  candidates: readonly ChainCandidate[]
  /** The most URLs it may pick. */
  maxFollow: number
}

/**
 * Picks which candidate URLs to follow. Anything it throws, a timeout, or URLs that are not candidates make the
 * chain fall back to the built-in score for that node (fail closed: never "follow everything").
 */
export type ChainGate = (input: ChainGateInput, context: { signal: AbortSignal }) => Promise<readonly string[]>

/** Options of `followChain`. */
export interface FollowChainOptions extends Omit<FetchThreadOptions, 'deadlineMs'> {
  /** What the chain is looking for; drives the relevance score. */
  query: string
  /** Levels of references followed from the seeds. Default 3. */
  maxDepth?: number
  /** Threads fetched in total, seeds included. Default 20. */
  maxNodes?: number
  /** References followed per thread. Default 3. */
  maxPerNode?: number
  /** Candidates scoring below this are never followed by the built-in rule. Default 0.25. */
  minScore?: number
  /** Time for the whole chain (ms). Default 120 000. */
  deadlineMs?: number
  /** Content read in total (bytes of bodies and comments) before the chain stops. Default 20 MiB. */
  maxTotalBytes?: number
  /** Threads fetched at once within one depth. Default 4. */
  nodeConcurrency?: number
  /** Optional LLM gate; see `ChainGate` and `createLlmChainGate`. */
  llm?: ChainGate
  /** Time allowed for one gate decision (ms). Default 10 000. */
  llmTimeoutMs?: number
}

/** One thread visited by a chain. */
export interface ChainNode {
  url: string
  depth: number
  /** The URL of the thread it was found in; null for seeds. */
  parent: string | null
  /** Why it was followed. */
  reason: { by: 'seed' | 'score' | 'llm'; type?: RefType; text?: string; context?: string; score?: number }
  title: string
  type?: ThreadType
  state?: string | null
  /** The first few hundred characters of the body. */
  summary: string
  refCount: number
  error?: ThreadError
}

/** The result of `followChain`. */
export interface Chain {
  query: string
  seeds: string[]
  nodes: ChainNode[]
  /** Why the chain stopped before exhausting its frontier, when it did. */
  stopped?: 'max_nodes' | 'deadline' | 'max_bytes'
  stats: { nodes: number; bytes: number; ms: number; gateCalls: number; gateFailures: number }
}

const TYPE_PRIOR: Record<RefType, number> = {
  duplicate: 1,
  fixes: 0.9,
  closes: 0.9,
  resolves: 0.9,
  cross_ref_pr: 0.8,
  cross_ref_issue: 0.75,
  related: 0.6,
  pr: 0.5,
  issue: 0.45,
  url: 0.3,
  commit: 0.1,
}

function terms(text: string): Set<string> {
  const out = new Set<string>()
  for (const m of text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
    const word = m[0]
    // Han/kana runs have no spaces: use character bigrams so "连接重置" overlaps "重置".
    if (hasHan(word) || hasKana(word)) {
      const chars = [...word]
      if (chars.length === 1) out.add(word)
      for (let i = 0; i + 1 < chars.length; i++) out.add(chars[i]! + chars[i + 1]!)
    } else if (word.length >= 2 && !ENGLISH_STOP_WORDS.has(word)) out.add(word)
  }
  return out
}

/** The built-in relevance of a reference for a query: 0.5 × term overlap + 0.35 × type prior + 0.15 × same repo. Pure. */
export function scoreRef(
  ref: Pick<Ref, 'type' | 'text' | 'context' | 'repo' | 'title'> & { url?: string },
  query: string,
  nodeRepo?: string,
): number {
  const wanted = terms(query)
  const have = terms(`${ref.text} ${ref.context} ${ref.title ?? ''} ${ref.url ?? ''}`)
  let hit = 0
  for (const t of wanted) if (have.has(t)) hit++
  const overlap = wanted.size === 0 ? 0 : hit / wanted.size
  const sameRepo = ref.repo && nodeRepo && ref.repo.toLowerCase() === nodeRepo.toLowerCase() ? 1 : 0
  return Math.round((0.5 * overlap + 0.35 * TYPE_PRIOR[ref.type] + 0.15 * sameRepo) * 1000) / 1000
}

/** The visited-set key: GitHub issues and PRs by `owner/repo#n` (so /issues/N and /pull/N meet), else core's canonicalUrl. */
function visitKey(url: string): string {
  const gh = parseGithubUrl(url)
  return gh ? `github:${gh.owner.toLowerCase()}/${gh.repo.toLowerCase()}#${gh.number}` : canonicalUrl(url)
}

interface Pending {
  url: string
  parent: string | null
  reason: ChainNode['reason']
}

/**
 * Breadth-first walk from seed URLs through the most relevant references of each thread, up to `maxDepth`,
 * with global node, time and byte budgets and a visited set. Threads of one depth are fetched in parallel.
 * Never rejects for a thread's failure (the node carries `error`); rejects with `InputError` for no seeds.
 */
export async function followChain(seeds: readonly string[], options: FollowChainOptions): Promise<Chain> {
  const started = Date.now()
  const {
    query,
    maxDepth = 3,
    maxNodes = 20,
    maxPerNode = 3,
    minScore = 0.25,
    deadlineMs = 120_000,
    maxTotalBytes = 20 * 1024 * 1024,
    nodeConcurrency = 4,
    llm,
    llmTimeoutMs = 10_000,
    ...fetchOptions
  } = options
  const deadlineAt = started + deadlineMs
  const nodes: ChainNode[] = []
  const visited = new Set<string>()
  const stats = { nodes: 0, bytes: 0, ms: 0, gateCalls: 0, gateFailures: 0 }
  let stopped: Chain['stopped']
  let frontier: Pending[] = []
  for (const url of seeds) {
    const key = visitKey(url)
    if (visited.has(key)) continue
    visited.add(key)
    frontier.push({ url, parent: null, reason: { by: 'seed' } })
  }

  for (let depth = 0; frontier.length > 0; depth++) {
    if (Date.now() >= deadlineAt) {
      stopped = 'deadline'
      break
    }
    const room = maxNodes - nodes.length
    if (room <= 0) {
      stopped = 'max_nodes'
      break
    }
    if (frontier.length > room) stopped = 'max_nodes'
    const batch = frontier.slice(0, room)
    const signal = timeoutSignal(Math.max(1, deadlineAt - Date.now()), options.signal)
    const results = await mapLimit(batch, nodeConcurrency, async (pending) => {
      try {
        const thread = await fetchThread(pending.url, {
          ...fetchOptions,
          signal,
          deadlineMs: Math.max(1, deadlineAt - Date.now()),
        })
        return { pending, thread }
      } catch (error) {
        return { pending, error: errorJson(toThreadError(error, 'thread')) }
      }
    })
    const next: Pending[] = []
    for (const { pending, thread, error } of results) {
      const bytes = thread
        ? Buffer.byteLength(thread.body) + thread.comments.reduce((n, c) => n + Buffer.byteLength(c.body), 0)
        : 0
      stats.bytes += bytes
      nodes.push({
        url: thread?.url ?? pending.url,
        depth,
        parent: pending.parent,
        reason: pending.reason,
        title: thread?.title ?? '',
        ...(thread && { type: thread.type, state: thread.state }),
        summary: thread ? summarize(thread.body || thread.comments[0]?.body || '') : '',
        refCount: thread?.refs.length ?? 0,
        ...(error && { error }),
      })
      if (thread) visited.add(visitKey(thread.url))
      if (!thread || depth === maxDepth) continue
      const nodeRepo = typeof thread.metadata.repo === 'string' ? thread.metadata.repo : undefined
      const candidates = thread.refs
        .filter(
          (r): r is Ref & { url: string } =>
            r.url !== undefined && r.type !== 'commit' && /^https?:/i.test(r.url) && !visited.has(visitKey(r.url)),
        )
        .map((r) => ({
          url: r.url,
          type: r.type,
          text: r.text,
          context: r.context,
          ...(r.title && { title: r.title }),
          ...(r.repo && { repo: r.repo }),
          score: scoreRef(r, query, nodeRepo),
        }))
        .sort((a, b) => b.score - a.score)
      const picks = await choose(candidates, {
        query,
        node: { url: thread.url, title: thread.title, depth },
        maxFollow: maxPerNode,
        minScore,
        llm,
        llmTimeoutMs,
        signal,
        stats,
      })
      for (const pick of picks) {
        const key = visitKey(pick.candidate.url)
        if (visited.has(key)) continue
        visited.add(key)
        const c = pick.candidate
        next.push({
          url: c.url,
          parent: thread.url,
          reason: { by: pick.by, type: c.type, text: c.text, context: c.context, score: c.score },
        })
      }
    }
    if (stats.bytes >= maxTotalBytes) stopped = 'max_bytes'
    if (stopped) break
    frontier = next
  }
  if (!stopped && Date.now() >= deadlineAt) stopped = 'deadline'
  stats.nodes = nodes.length
  stats.ms = Date.now() - started
  return { query, seeds: [...seeds], nodes, ...(stopped && { stopped }), stats }
}

async function choose(
  candidates: ChainCandidate[],
  ctx: {
    query: string
    node: ChainGateInput['node']
    maxFollow: number
    minScore: number
    llm?: ChainGate
    llmTimeoutMs: number
    signal: AbortSignal
    stats: Chain['stats']
  },
): Promise<{ candidate: ChainCandidate; by: 'score' | 'llm' }[]> {
  const builtIn = () =>
    candidates
      .filter((c) => c.score >= ctx.minScore)
      .slice(0, ctx.maxFollow)
      .map((candidate) => ({ candidate, by: 'score' as const }))
  if (!ctx.llm || candidates.length === 0 || ctx.maxFollow <= 0) return builtIn()
  ctx.stats.gateCalls++
  try {
    const signal = timeoutSignal(ctx.llmTimeoutMs, ctx.signal)
    const gate = ctx.llm
    const picked = await new Promise<readonly string[]>((resolve, reject) => {
      signal.addEventListener('abort', () => reject(new Error('gate timed out')), { once: true })
      gate({ query: ctx.query, node: ctx.node, candidates, maxFollow: ctx.maxFollow }, { signal }).then(resolve, reject)
    })
    if (!Array.isArray(picked)) throw new Error('gate returned no list')
    const byUrl = new Map(candidates.map((c) => [c.url, c]))
    const chosen = [...new Set(picked)].map((u) => byUrl.get(u))
    // A pick that is not a candidate means the gate is confused: distrust the whole answer.
    if (chosen.some((c) => c === undefined)) throw new Error('gate picked a URL that is not a candidate')
    return (chosen as ChainCandidate[]).slice(0, ctx.maxFollow).map((candidate) => ({ candidate, by: 'llm' as const }))
  } catch {
    ctx.stats.gateFailures++
    return builtIn()
  }
}

function summarize(text: string): string {
  const flat = text
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
  return flat.length > 300 ? `${flat.slice(0, 299)}…` : flat
}

/** Options of `createLlmChainGate`. */
export interface LlmChainGateOptions {
  /** OpenAI-compatible base URL (`…/v1`); default `SEARCH_LAYER_LLM_URL`. */
  baseUrl?: string
  /** Default `SEARCH_LAYER_LLM_KEY`. */
  apiKey?: string
  /** Default `SEARCH_LAYER_LLM_MODEL`. */
  model?: string
  env?: Env
}

const GateReplySchema = z.object({ follow: z.array(z.number().int().nonnegative()) })

/**
 * A `ChainGate` backed by an OpenAI-compatible `/chat/completions` endpoint. Returns undefined when no endpoint
 * or model is configured; its errors (`ProviderError`) only make the chain fall back to the built-in score.
 */
export function createLlmChainGate(options: LlmChainGateOptions = {}): ChainGate | undefined {
  const env = options.env ?? process.env
  const baseUrl = options.baseUrl ?? env.SEARCH_LAYER_LLM_URL
  const model = options.model ?? env.SEARCH_LAYER_LLM_MODEL
  const apiKey = options.apiKey ?? env.SEARCH_LAYER_LLM_KEY
  if (!baseUrl || !model) return undefined
  const endpoint = { url: baseUrl, model, ...(apiKey && { apiKey }) }
  return async (input, { signal }) => {
    const list = input.candidates
      .map((c, i) => `${i}. [${c.type}] ${c.url} — ${c.title ?? c.text} — ${c.context}`)
      .join('\n')
    const content = await chatCompletion(endpoint, {
      temperature: 0,
      messages: [
        {
          role: 'system',
          content: `You decide which references of a discussion are worth reading to answer a question. Answer only JSON {"follow":[indexes]} with at most ${input.maxFollow} indexes, most useful first; [] when none is relevant.`,
        },
        {
          role: 'user',
          content: `Question: ${input.query}\nCurrent thread: ${input.node.title} (${input.node.url})\nCandidates:\n${list}`,
        },
      ],
      signal,
      retries: 0,
      env,
    })
    const parsed = GateReplySchema.safeParse(extractJsonObject(content))
    if (!parsed.success)
      throw new ProviderError('LLM gate answered without a {"follow":[…]} list', {
        kind: 'bad_response',
        provider: 'llm',
      })
    return parsed.data.follow.map((i) => input.candidates[i]?.url ?? `invalid:${i}`)
  }
}
