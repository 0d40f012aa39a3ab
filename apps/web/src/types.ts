// The shapes the page reads from the API (a subset of the server's schemas; unknown fields are ignored).

type EngineName = string

export interface Result {
  title: string
  url: string
  snippet: string
  published_date: string | null
  source: string
  sources: EngineName[]
  score?: number
  duplicates?: { url: string; title: string; sources: EngineName[] }[]
  explain?: Record<string, number>
}

export interface ProviderReport {
  status: 'ok' | 'error' | 'skipped'
  results: number
  ms: number
  calls: number
  reason?: string
  fallback_for?: EngineName
  error?: { kind: string; message: string }
}

export interface SearchResponse {
  query: string
  mode: string
  intent: string | null
  intent_source: string
  queries: string[]
  count: number
  results: Result[]
  answer?: string
  answer_source?: EngineName
  providers: Record<EngineName, ProviderReport>
  partial: boolean
  cached: boolean
  warnings: string[]
  /** Present when no engine key is set and only keyless sources answered: which, and the variables to set for more. */
  keyless_only?: KeylessOnly
  timing: { total_ms: number }
}

export interface KeylessOnly {
  sources: EngineName[]
  set: string[]
  message: string
}

export interface Plan {
  query: string
  intent: string | null
  intent_source: string
  confidence?: number
  intent_why: string
  mode: string
  mode_why: string
  freshness: string | null
  queries: string[]
  engines: {
    name: EngineName
    role: 'primary' | 'stand-in' | 'skipped'
    why: string
    fallback_for?: EngineName
    stand_ins: EngineName[]
  }[]
  warnings: string[]
}

export type Progress =
  | { type: 'started'; provider: EngineName; query: string }
  | { type: 'done'; provider: EngineName; query: string; results: number; ms: number }
  | { type: 'failed'; provider: EngineName; query: string; kind: string; message: string; ms: number }
  | { type: 'skipped'; provider: EngineName; reason: string }

export interface HistoryEntry {
  query: string
  intent: string | null
  mode: string
  when: string
  count: number
  cached: boolean
}

export interface ToolCall {
  id: string
  tool: string
  via: 'api' | 'mcp'
  at: string
  ms: number
  args: string
  outcome: 'ok' | 'error' | 'failed'
  status: number
  summary: string
}

export interface Ref {
  type: string
  url?: string
  key: string
  text: string
  context: string
  repo?: string
  number?: number
  title?: string
  state?: string
}

export interface Thread {
  url: string
  type: string
  title: string
  body: string
  state: string | null
  labels: string[]
  comments: {
    id: string
    kind: string
    author: string | null
    body: string
    createdAt: string | null
    url?: string
    depth?: number
  }[]
  refs: Ref[]
  metadata: Record<string, unknown>
  error?: { kind: string; message: string }
}
