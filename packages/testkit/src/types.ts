/** The services the emulator speaks for. */
export type EmulatedService =
  | 'brave'
  | 'exa'
  | 'tavily'
  | 'grok'
  | 'github'
  | 'pages'
  | 'llm'
  | 'hackernews'
  | 'wikipedia'
  | 'stackexchange'
  | 'searxng'
  | 'duckduckgo'
  | 'bocha'

/** Services that take a key or token. */
export type KeyedService = 'brave' | 'exa' | 'tavily' | 'grok' | 'github' | 'llm' | 'stackexchange' | 'bocha'

/** Options of `startEmulator`. */
export interface EmulatorOptions {
  /** Port to listen on; default 0 (ephemeral). */
  port?: number
  /** Interface to bind; default `127.0.0.1`. */
  host?: string
  /**
   * Keys the emulator accepts; defaults are `DEFAULT_KEYS`. A list makes Brave, Exa, Tavily, xAI and Bocha accept
   * every key in it (a key pool); `Emulator.keys` and `env` hold the first.
   */
  keys?: Partial<Record<KeyedService, string | readonly string[]>>
  /** Delay before every answer, globally or per service. */
  latencyMs?: number | Partial<Record<EmulatedService, number>>
  /** Clock for generated dates; default fixed at 2026-11-20T12:00:00Z so the corpus is deterministic. */
  now?: () => Date
}

/** A failure to inject into the next requests of one service. */
export interface Fault {
  /** HTTP status; the body is the vendor's real error format for it. */
  status?: number
  /** Vendor error code where one status has several (brave 429: `RATE_LIMITED` | `QUOTA_LIMITED`). */
  code?: string
  /** Sets `Retry-After` (seconds). */
  retryAfterSec?: number
  /** Accept the request and never answer (until the emulator closes). */
  hang?: boolean
  /** Destroy the socket without a response. */
  reset?: boolean
  /** 200 with truncated JSON and `content-type: application/json`. */
  malformedJson?: boolean
  /** 200 with an HTML error page. */
  html?: boolean
  /** 200 with a valid JSON body of exactly this many bytes. */
  oversizedBytes?: number
  /** 200 that streams bytes until the client hangs up. */
  endlessBody?: boolean
  /** Delay before answering. */
  latencyMs?: number
  /**
   * Headers set on the answer, over its own of the same (lower-case) name: e.g. a paid plan's `x-ratelimit-*` on
   * Brave's emulated answer, whose own headers are the free plan's.
   */
  headers?: Record<string, string>
  /** Apply to the next N requests of the service only, then clear. */
  times?: number
  /** Apply only to requests presenting this key (in any request header); others are answered as usual. */
  key?: string
  /**
   * Answer with exactly this recorded response (a vendor body captured elsewhere) instead of the emulated one.
   * Framing headers (`content-length`, `transfer-encoding`, `content-encoding`, `connection`) are recomputed.
   */
  reply?: RecordedReply
}

/** A captured upstream response to replay: status, the headers that were recorded, the body bytes. */
export interface RecordedReply {
  /** Default 200. */
  status?: number
  /** Default `content-type: application/json; charset=utf-8`. */
  headers?: Record<string, string>
  body: string | Buffer
}

/** One request as the emulator saw it. */
export interface RecordedRequest {
  id: number
  service: EmulatedService
  method: string
  path: string
  query: Record<string, string | string[]>
  headers: Record<string, string>
  /** Parsed JSON, or the raw text when it is not JSON; undefined when empty. */
  body: unknown
  startedAt: number
  endedAt?: number
  status?: number
}

/** A GitHub issue or pull request to serve. */
export interface GithubIssueSpec {
  owner: string
  repo: string
  number: number
  title?: string
  body?: string
  /** A count (generated bodies) or explicit comments. */
  comments?: number | { body: string; user?: string }[]
  isPull?: boolean
  merged?: boolean
  state?: 'open' | 'closed'
  labels?: string[]
  /** Raw timeline events, or a count of generated ones. */
  timeline?: unknown[] | number
  reviews?: { state: 'APPROVED' | 'CHANGES_REQUESTED' | 'COMMENTED'; body?: string; user?: string }[]
  reviewComments?: { path: string; body: string; line?: number; user?: string }[]
  /** Serve 404 or 410 for this issue. */
  gone?: 404 | 410
  /** Transferred: answer 301 with Location to the new API URL. */
  movedTo?: { owner: string; repo: string; number: number }
  /**
   * How this issue's lists paginate. `rels: 'next'` sends only `rel="next"` (as some GitHub lists do) instead of
   * next/last/prev/first; `linkBase` points the links at another server (a hostile or misconfigured API).
   */
  paging?: { rels?: 'all' | 'next'; linkBase?: string }
}

/** A page the `pages` service serves. */
export interface PageSpec {
  body: string | Buffer
  contentType?: string
  status?: number
  headers?: Record<string, string>
}

/** A tool call in a chat request's history (an assistant message's `tool_calls`). */
export interface LlmSeenToolCall {
  id: string
  name: string
  /** The arguments exactly as sent (a JSON string, or whatever the client put there). */
  arguments: string
}

/** One message of a chat request, as a script sees it. */
export interface LlmMessage {
  role: string
  /** The text (content parts joined); `''` when there is none. */
  content: string
  /** An assistant message's tool calls. */
  toolCalls?: LlmSeenToolCall[]
  /** A `tool` message: the id of the call it answers. */
  toolCallId?: string
}

/** What a scripted LLM handler receives. */
export interface LlmRequest {
  messages: LlmMessage[]
  model: string
  body: unknown
  /** Names of the function tools the request offers. */
  tools: string[]
  /** Requests answered since the handler or script was set: 0 for the first. */
  turn: number
  stream: boolean
}

/**
 * A tool call the scripted model makes. `arguments` given as a string is sent verbatim, so a fault test can send
 * invalid JSON; anything else is JSON-encoded. `id` defaults to a stable `call_…`.
 */
export interface LlmToolCall {
  name: string
  arguments: unknown
  id?: string
}

/**
 * A scripted LLM reply: assistant text; `{ content?, toolCalls?, latencyMs? }` (text and/or tool calls, finish
 * reason `tool_calls` when there are calls, answered after `latencyMs`); or a raw status and body.
 */
export type LlmReply =
  | string
  | { content?: string; toolCalls?: LlmToolCall[]; latencyMs?: number }
  | { status: number; body: unknown }

export type LlmHandler = (request: LlmRequest) => LlmReply

/** One step of `emu.llm.script`: a reply, or a handler that makes one from the request. */
export type LlmScriptStep = LlmReply | LlmHandler

/** A running emulator. */
export interface Emulator {
  url: string
  urls: Record<EmulatedService, string>
  env: Record<string, string>
  keys: Record<KeyedService, string>
  fault(service: EmulatedService, fault: Fault | null): void
  latency(service: EmulatedService, ms: number): void
  readonly requests: readonly RecordedRequest[]
  /** The newest request one service received; throws when it received none. */
  lastRequest(service: EmulatedService): RecordedRequest
  count(service?: EmulatedService): number
  maxInFlight(service?: EmulatedService): number
  reset(): void
  github: { addIssue(spec: GithubIssueSpec): void }
  pages: { set(path: string, page: PageSpec): void }
  llm: {
    /** Answers every chat request with the handler (null: the default echo reply). */
    respond(handler: LlmHandler | null): void
    /**
     * Answers the next requests with these steps, one each, in order; past the last, a 500 in OpenAI's error
     * envelope saying the script ran out.
     */
    script(steps: readonly LlmScriptStep[]): void
  }
  close(): Promise<void>
}
