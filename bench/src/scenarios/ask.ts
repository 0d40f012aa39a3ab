import { performance } from 'node:perf_hooks'
import { type AskResult, ask } from '@search-layer/ask'
import { createSearchLayer } from '@search-layer/engine'
import { type Emulator, type LlmReply, type LlmRequest, startEmulator } from '@search-layer/testkit'
import type { ScenarioContext } from '../_context.js'
import { rssMb } from '../_context.js'
import type { VariantResult } from '../_report.js'
import { summarize } from '../_stats.js'

/** The engine answers at this latency (ms), the model each turn at this one: the figures issue 39 asks for. */
const ENGINE_MS = 200
const MODEL_MS = 300
const SHAPE = `brave at ${ENGINE_MS} ms, scripted model at ${MODEL_MS} ms per turn, pages on loopback at 0 ms`

// Invented pages about an invented tool, so every answer comes from them. Written for this scenario.
const FACT = 'Zorblax 4.2 was released on 3 March 2026 by the Zorblax maintainers.'
const DEEP_FACT =
  'The streaming parser was added because large configuration files exhausted the memory of Zorblax 4.1.'
const page = (title: string, paragraphs: string[]) =>
  `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><main><article><h1>${title}</h1>${paragraphs.map((p) => `<p>${p}</p>`).join('')}</article></main></body></html>`
const PAGES: [string, string, string[]][] = [
  [
    '/bench-ask/release',
    'Zorblax 4.2 release notes',
    [
      `${FACT} It ships a new streaming parser for configuration files.`,
      'Support for Node 16 was dropped in this release; the minimum supported version is now Node 20.',
      'Upgrading from 4.1 needs no configuration changes for most projects, according to the upgrade guide.',
    ],
  ],
  [
    '/bench-ask/design',
    'Why Zorblax parses configuration as a stream',
    [
      `${DEEP_FACT} Users reported crashes with files above two gigabytes.`,
      'The new parser reads configuration in chunks of sixty-four kilobytes and keeps only the current section.',
      'Benchmarks in the design note show memory use staying flat as configuration files grow.',
    ],
  ],
  [
    '/bench-ask/changelog',
    'Zorblax changelog',
    ['Version 4.2 adds the streaming parser, drops Node 16 and fixes twelve bugs in the plugin loader.'],
  ],
]

function seed(emu: Emulator): void {
  for (const [path, title, paragraphs] of PAGES) emu.pages.set(path, { body: page(title, paragraphs) })
  const results = PAGES.map(([path, title]) => ({
    type: 'search_result',
    title,
    url: `${emu.urls.pages}${path}`,
    description: `${title}.`,
  }))
  emu.fault('brave', { reply: { body: JSON.stringify({ type: 'search', web: { type: 'search', results } }) } })
  emu.latency('brave', ENGINE_MS)
}

/** The id of the passage shown to the model whose block holds `needle`. */
function passageWith(request: LlmRequest, needle: string): string {
  const shown = request.messages.map((m) => m.content).join('\n')
  for (const block of shown.split(/\n(?=\[p\d+\] )/)) {
    const id = /^\[(p\d+)\] /.exec(block.trimStart())?.[1]
    if (id && block.includes(needle)) return id
  }
  return 'p1'
}

/** A simple fact: search, then answer. A deep question: search, read a page, then answer. */
function script(kind: 'simple' | 'deep', emu: Emulator, i: number): void {
  const at = (reply: Exclude<LlmReply, string>) => ({ ...reply, latencyMs: MODEL_MS })
  emu.llm.respond((req) => {
    if (req.turn === 0) return at({ toolCalls: [{ name: 'web_search', arguments: { query: `zorblax ${kind} ${i}` } }] })
    if (kind === 'deep' && req.turn === 1)
      return at({ toolCalls: [{ name: 'web_fetch', arguments: { url: `${emu.urls.pages}/bench-ask/design` } }] })
    const [needle, claim] =
      kind === 'simple'
        ? [FACT, 'Zorblax 4.2 came out on 3 March 2026. [ID: "released on 3 March 2026"]']
        : [DEEP_FACT, 'Memory ran out on large files. [ID: "large configuration files exhausted the memory"]']
    return at({ content: claim.replace('ID', passageWith(req, needle)) })
  })
}

interface Runs {
  ms: number[]
  input: number[]
  output: number[]
  calls: number[]
  supported: number[]
}

const newRuns = (): Runs => ({ ms: [], input: [], output: [], calls: [], supported: [] })

function row(variant: string, runs: Runs, note: string): VariantResult {
  const latency = summarize(runs.ms)
  const mean = (list: number[]) => (list.length ? Math.round(list.reduce((a, b) => a + b, 0) / list.length) : 0)
  const tokens = { prompt: mean(runs.input), completion: mean(runs.output) }
  return {
    scenario: '14 ask',
    variant,
    latency,
    throughput: { value: 1000 / latency.mean, unit: 'asks/s' },
    upstreamCalls: mean(runs.calls),
    rssMb: rssMb(),
    extra: { tokensPerAsk: tokens, supportedSentences: mean(runs.supported), shape: SHAPE },
    note: `${note}; tokens/ask ${tokens.prompt} prompt + ${tokens.completion} completion; ${SHAPE}`,
  }
}

/**
 * Scenario 13: what one `ask` costs. Tokens sent to the model per ask (the scripted model's `usage`, which counts
 * the prompt it was sent) and wall time, for a simple fact (search, answer) and a deep question (search, read a
 * page, answer), beside two baselines in the same run: the search with reading alone, and the ask without a model
 * (that search, then the extractive answer).
 */
export async function askScenario(ctx: ScenarioContext): Promise<VariantResult[]> {
  const emu = await startEmulator({ port: 0 })
  try {
    seed(emu)
    const home = await ctx.tempHome()
    const env = { ...emu.env, HOME: home, SEARCH_LAYER_KEYLESS: 'off', SEARCH_LAYER_ALLOW_PRIVATE_HOSTS: '1' }
    const iterations = ctx.quick ? 3 : 12
    const warmup = ctx.quick ? 1 : 2
    const runs = { search: newRuns(), extractive: newRuns(), simple: newRuns(), deep: newRuns() }
    const question = { simple: 'When was Zorblax 4.2 released?', deep: 'Why did Zorblax add a streaming parser?' }
    for (let i = 0; i < warmup + iterations; i++) {
      const keep = i >= warmup
      // A fresh layer each time: no answer from the response or page cache of an earlier round.
      const layer = () => createSearchLayer({ env, rateLimits: false })
      let before = emu.count()
      let t0 = performance.now()
      await layer().search({
        query: `${question.simple} ${i}`,
        sources: ['brave'],
        num: 5,
        read: { pages: 3, question: question.simple },
      })
      if (keep) record(runs.search, performance.now() - t0, emu.count() - before)
      before = emu.count()
      t0 = performance.now()
      const extractive = await ask(
        { question: `${question.simple} (${i})`, sources: ['brave'], model: false },
        { env, layer: layer() },
      )
      if (keep) record(runs.extractive, performance.now() - t0, emu.count() - before, extractive)
      for (const kind of ['simple', 'deep'] as const) {
        script(kind, emu, i)
        before = emu.count()
        t0 = performance.now()
        const result = await ask({ question: `${question[kind]} (${i})`, sources: ['brave'] }, { env, layer: layer() })
        if (keep) record(runs[kind], performance.now() - t0, emu.count() - before, result)
      }
    }
    emu.llm.respond(null)
    const out = [
      row('baseline: search + read 3 pages', runs.search, 'the engine alone, ranking passages for the question'),
      row('baseline: ask without a model', runs.extractive, 'that search, then the extractive answer; 0 tokens'),
      row('ask, simple fact (search, answer)', runs.simple, '2 model turns'),
      row('ask, deep question (search, fetch, answer)', runs.deep, '3 model turns'),
    ]
    for (const r of out)
      ctx.log(
        `ask: ${r.variant}: p50 ${r.latency?.p50} ms; tokens ${JSON.stringify(r.extra?.tokensPerAsk)}; ` +
          `supported sentences ${r.extra?.supportedSentences}`,
      )
    return out
  } finally {
    await emu.close()
  }
}

function record(runs: Runs, ms: number, calls: number, result?: AskResult): void {
  runs.ms.push(ms)
  runs.calls.push(calls)
  runs.input.push(result?.usage.tokens.input ?? 0)
  runs.output.push(result?.usage.tokens.output ?? 0)
  runs.supported.push(result?.counts.supported ?? 0)
}
