import { setTimeout as sleep } from 'node:timers/promises'
import {
  type Env,
  type Provider,
  type ProviderCall,
  ProviderError,
  type ProviderResponse,
  defineProvider,
  isProviderError,
} from '@search-layer/core'
import { type PaceStore, processPaceStore, requestText, timerMs } from '@search-layer/core/http'
import { duckduckgoService } from './service.js'
import { buildDuckDuckGoQuery, duckDuckGoChallengeError, mapDuckDuckGoError, mapDuckDuckGoResults } from './map.js'

/** Options of `createDuckDuckGoProvider`; every field is optional and the base URL is read at call time. */
export interface DuckDuckGoProviderOptions {
  /** Base URL (default `https://html.duckduckgo.com`, or `DUCKDUCKGO_URL`); `/html/` is appended. */
  baseUrl?: string
  /** Least time between two requests to the same base URL, across everything sharing `pace`. Default 1000 ms. */
  minIntervalMs?: number
  /** Where request slots are taken: default `processPaceStore` (every provider in the process); a server shares one. */
  pace?: PaceStore
  /** Sent as `User-Agent`. */
  userAgent?: string
  /** Time allowed per attempt (ms). Default 8000. */
  timeoutMs?: number
  /** Retries after the first attempt for retryable failures (never the challenge page). Default 1. */
  retries?: number
  /** Where the base URL is read from when the call context has no `env`; default `process.env`. */
  env?: Env
  /** Largest page accepted (bytes), once decompressed. Default 256 KiB. */
  maxBytes?: number
  /** How long to stay away after a challenge page or a 403/429 block. Default 60 000 ms. */
  cooldownMs?: number
  /** The clock the cooldown and the pace are measured with (epoch ms, as deadlines are); default `Date.now`. */
  clock?: () => number
}

// A results page is about 30 KB (the recorded ones: 28 and 31 KB for ten hits). Anything much larger is not one,
// and the parser's time grows with what it is given, so a larger body is refused before it is read.
const DEFAULT_MAX_BYTES = 256 * 1024
const DEFAULT_USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0'

const paceKey = (base: string) => `duckduckgo:${base}`

// NOTE(duckduckgo): a shared, keyless endpoint that answers bursts with a bot challenge. Requests to one base URL are
// spaced at least `minIntervalMs` apart over everything sharing the pace store (the process; a server's instances
// through Redis): the slot is taken before waiting, so concurrent callers queue.
async function waitForSlot(
  pace: PaceStore,
  clock: () => number,
  base: string,
  intervalMs: number,
  signal: AbortSignal | undefined,
  deadlineAt: number | undefined,
): Promise<void> {
  const now = clock()
  const at = await pace.reserve(paceKey(base), {
    intervalMs,
    now,
    ...(deadlineAt !== undefined && { notAfter: deadlineAt }),
  })
  // A store that answers past the deadline anyway (any `PaceStore`, Redis holding anything) is refused the same.
  if (at === undefined || (deadlineAt !== undefined && !(at < deadlineAt)))
    throw new ProviderError(
      `duckduckgo call skipped: its next request slot comes after the deadline (its pace is one request per ${intervalMs} ms, and a challenge anywhere sharing the pace holds everyone off for a while)`,
      {
        kind: 'timeout',
        provider: 'duckduckgo',
        retryable: false,
      },
    )
  const waitMs = at - clock()
  if (waitMs > 0) {
    try {
      // The slot may come from a shared store (Redis): held to a timer's range whatever it holds.
      await sleep(timerMs(waitMs), undefined, { signal })
    } catch (error) {
      throw new ProviderError('duckduckgo call was cancelled', {
        kind: 'timeout',
        provider: 'duckduckgo',
        retryable: false,
        cause: error,
      })
    }
  }
}

// The HTML parser (htmlparser2 and its entity tables) loads with the first request, not with the registry: every
// search imports every provider, and most never ask DuckDuckGo. It starts loading once that request is sent, so a
// one-shot process (the CLI) evaluates it while the page travels: a zero-key CLI search's last answer → exit
// 27 → 19 ms (pnpm bench).
let parser: Promise<typeof import('./parse.js')> | undefined
const loadParser = () => (parser ??= import('./parse.js'))

/**
 * Creates the DuckDuckGo provider (its HTML results page; no key). Paced to one request a second by default; the
 * bot challenge page is `rate_limited` and never retried or parsed, and starts a cooldown during which calls are
 * refused without a request. `search()` rejects only with `ProviderError`
 * (`config`, `rate_limited`, `timeout`, `network`, `upstream`, `bad_response`).
 */
export function createDuckDuckGoProvider(options: DuckDuckGoProviderOptions = {}): Provider {
  const {
    timeoutMs = 8000,
    maxBytes = DEFAULT_MAX_BYTES,
    minIntervalMs = 1000,
    userAgent = DEFAULT_USER_AGENT,
    retries = 1,
    cooldownMs = 60_000,
    clock = Date.now,
    pace = processPaceStore,
  } = options
  // NOTE(duckduckgo): after a challenge, more requests only prolong it; stay away for `cooldownMs`.
  let coolUntil = 0
  return defineProvider({
    definition: duckduckgoService,
    overrides: { baseUrl: options.baseUrl },
    env: options.env,
    async run({ request, service, http }) {
      const coolingMs = coolUntil - clock()
      if (coolingMs > 0)
        throw new ProviderError(
          `duckduckgo challenged or blocked a recent request; staying away, retry after ${Math.ceil(coolingMs / 1000)}s`,
          { kind: 'rate_limited', provider: 'duckduckgo', code: 'cooldown', retryable: false, retryAfterMs: coolingMs },
        )
      try {
        return await searchOnce(request, service.baseUrl, http)
      } catch (error) {
        if (isProviderError(error) && error.kind === 'rate_limited') {
          coolUntil = clock() + cooldownMs
          // Everyone sharing the pace (a server's instances) stays away too: a slot taken now, the next one only
          // after the cooldown.
          await pace.reserve(paceKey(service.baseUrl), { intervalMs: cooldownMs, now: clock() })
        }
        throw error
      }
    },
  })

  async function searchOnce(
    request: ProviderCall['request'],
    baseUrl: string,
    http: ProviderCall['http'],
  ): Promise<ProviderResponse> {
    await waitForSlot(pace, clock, baseUrl, minIntervalMs, http.signal, http.deadlineAt)
    const response = await requestText({
      ...http,
      // The parser loads while the page is on its way (see loadParser).
      onRequestSent: () => {
        http.onRequestSent?.()
        void loadParser().catch(() => undefined)
      },
      service: 'duckduckgo',
      url: `${baseUrl}/html/`,
      method: 'GET',
      query: { ...buildDuckDuckGoQuery(request) },
      headers: {
        accept: 'text/html,application/xhtml+xml',
        'user-agent': userAgent,
        ...(request.language && { 'accept-language': request.language }),
      },
      timeoutMs,
      maxBytes,
      retries,
      mapError: mapDuckDuckGoError,
    })
    const { isDuckDuckGoChallenge, parseDuckDuckGoPage } = await loadParser()
    // NOTE(duckduckgo): the challenge comes as a 202, or as a 200 whose page is the puzzle.
    if (response.status === 202 || isDuckDuckGoChallenge(response.text)) throw duckDuckGoChallengeError(response.status)
    const { results, dropped } = mapDuckDuckGoResults(parseDuckDuckGoPage(response.text), request)
    return { results, dropped, cost: { usd: 0, basis: 'estimated' } }
  }
}
