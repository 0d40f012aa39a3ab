import { EmulatorServer, SERVICE_PREFIX } from './_server.js'
import { seedPages } from './_pages-seed.js'
import { DEFAULT_KEYS, DEFAULT_NOW } from './keys.js'
import { bochaRoutes } from './routes/bocha.js'
import { braveRoutes } from './routes/brave.js'
import { duckduckgoRoutes } from './routes/duckduckgo.js'
import { exaRoutes } from './routes/exa.js'
import { githubRoutes } from './routes/github.js'
import { hackernewsRoutes } from './routes/hackernews.js'
import { LlmConversation, llmRoutes } from './routes/llm.js'
import { pagesRoutes } from './routes/pages.js'
import { searxngRoutes } from './routes/searxng.js'
import { stackexchangeRoutes } from './routes/stackexchange.js'
import { tavilyRoutes } from './routes/tavily.js'
import { wikipediaRoutes } from './routes/wikipedia.js'
import { xaiRoutes } from './routes/xai.js'
import type { EmulatedService, Emulator, EmulatorOptions, KeyedService } from './types.js'

/**
 * The model names the emulator advertises in `env`: xAI's current web-search model (the Grok provider's default,
 * `GROK_DEFAULT_MODEL`; testkit cannot import the provider it tests) and a generic LLM.
 */
export const EMULATOR_MODELS = { grok: 'grok-4.3', llm: 'test-llm-mini' } as const

/**
 * Starts one loopback HTTP server that speaks Brave, Exa, Tavily, xAI, GitHub (threads and search), Hacker News
 * (Algolia), Wikipedia, Stack Exchange, SearXNG, DuckDuckGo (HTML), Bocha, plain pages and an OpenAI-compatible LLM,
 * with fault injection. Rejects with the listen error (e.g. EADDRINUSE).
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  // A service given a list accepts every key in it (a key pool); `keys` and `env` name the first.
  const accepted = Object.fromEntries(
    Object.entries({ ...DEFAULT_KEYS, ...options.keys }).map(([service, given]) => [
      service,
      typeof given === 'string' ? [given] : [...given],
    ]),
  ) as Record<KeyedService, string[]>
  const keys = Object.fromEntries(
    Object.entries(accepted).map(([service, list]) => [service, list[0] ?? DEFAULT_KEYS[service as KeyedService]]),
  ) as Record<KeyedService, string>
  const isKeyOf = (service: KeyedService) => (given: string | undefined) =>
    given !== undefined && accepted[service].includes(given)
  const fixed = new Date(DEFAULT_NOW)
  const now = options.now ?? (() => new Date(fixed))
  const llm = new LlmConversation()
  const pages = seedPages()
  const github = githubRoutes(() => keys.github)
  const server = new EmulatorServer({
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 0,
    now,
    latencyMs: options.latencyMs,
    routes: {
      brave: braveRoutes(isKeyOf('brave')),
      exa: exaRoutes(isKeyOf('exa')),
      tavily: tavilyRoutes(isKeyOf('tavily')),
      grok: xaiRoutes(isKeyOf('grok')),
      github,
      pages: pagesRoutes(pages),
      llm: llmRoutes(() => keys.llm, llm),
      hackernews: hackernewsRoutes(),
      wikipedia: wikipediaRoutes(),
      stackexchange: stackexchangeRoutes(() => keys.stackexchange),
      searxng: searxngRoutes(),
      duckduckgo: duckduckgoRoutes(),
      bocha: bochaRoutes(isKeyOf('bocha')),
    },
  })
  await server.listen()
  const url = server.url
  const base = (service: EmulatedService) => `${url}${SERVICE_PREFIX[service]}`
  const urls: Record<EmulatedService, string> = {
    brave: base('brave'),
    exa: base('exa'),
    tavily: base('tavily'),
    grok: `${base('grok')}/v1`,
    github: base('github'),
    pages: base('pages'),
    llm: `${base('llm')}/v1`,
    hackernews: `${base('hackernews')}/api/v1`,
    // One wiki per language, as https://{lang}.wikipedia.org: the provider fills in `{lang}`.
    wikipedia: `${base('wikipedia')}/{lang}`,
    stackexchange: `${base('stackexchange')}/2.3`,
    searxng: base('searxng'),
    duckduckgo: base('duckduckgo'),
    bocha: `${base('bocha')}/v1`,
  }
  const env: Record<string, string> = {
    BRAVE_API_KEY: keys.brave,
    BRAVE_API_URL: urls.brave,
    EXA_API_KEY: keys.exa,
    EXA_API_URL: urls.exa,
    TAVILY_API_KEY: keys.tavily,
    TAVILY_API_URL: urls.tavily,
    XAI_API_KEY: keys.grok,
    GROK_API_URL: urls.grok,
    GROK_MODEL: EMULATOR_MODELS.grok,
    GITHUB_TOKEN: keys.github,
    GITHUB_API_URL: urls.github,
    SEARCH_LAYER_LLM_URL: urls.llm,
    SEARCH_LAYER_LLM_KEY: keys.llm,
    SEARCH_LAYER_LLM_MODEL: EMULATOR_MODELS.llm,
    SEARCH_LAYER_ALLOW_PRIVATE_HOSTS: '1',
    HN_API_URL: urls.hackernews,
    WIKIPEDIA_API_URL: urls.wikipedia,
    STACKEXCHANGE_KEY: keys.stackexchange,
    STACKEXCHANGE_API_URL: urls.stackexchange,
    SEARXNG_URL: urls.searxng,
    DUCKDUCKGO_URL: urls.duckduckgo,
    BOCHA_API_KEY: keys.bocha,
    BOCHA_API_URL: urls.bocha,
  }
  return {
    url,
    urls,
    env,
    keys,
    fault: (service, fault) => server.setFault(service, fault),
    latency: (service, ms) => server.setLatency(service, ms),
    get requests() {
      return server.requests
    },
    lastRequest(service) {
      const sent = server.requests.findLast((r) => r.service === service)
      if (!sent) throw new Error(`no ${service} request was recorded`)
      return sent
    },
    count: (service) => server.count(service),
    maxInFlight: (service) => server.maxInFlight(service),
    reset() {
      server.reset()
      github.resetCounters()
    },
    github: { addIssue: (spec) => github.addIssue(spec) },
    pages: {
      set(path, page) {
        pages.set(path.startsWith('/') ? path : `/${path}`, page)
      },
    },
    llm: {
      respond: (handler) => llm.respond(handler),
      script: (steps) => llm.script(steps),
    },
    close: () => server.close(),
  }
}
