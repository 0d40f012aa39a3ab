import type { AskEvent, AskResult } from '@search-layer/ask'
import { type StreamMessage, postStream } from './api.js'

// One question of a conversation as page state: what each event of /v1/ask's stream changes.

/** A tool call as the graph draws it: running until its `tool-end`. */
export interface ToolNode {
  call: string
  tool: string
  args: unknown
  status: 'running' | 'ok' | 'failed'
  ms?: number
  summary?: string
  results?: number
  passages?: number
}

/** A model turn and the tool calls it asked for. */
export interface TurnNode {
  turn: number
  status: 'running' | 'ok' | 'failed'
  /** False when the model had to answer without tools. */
  tools: boolean
  ms?: number
  tokens?: number
  summary?: string
  calls: ToolNode[]
}

/** One question asked, from its first event to its answer. */
export interface Exchange {
  question: string
  status: 'running' | 'done' | 'error'
  /** Model turns in order; turn 0 holds tool calls made without a model (the extractive answer's search). */
  turns: TurnNode[]
  result?: AskResult
  error?: { message: string; code?: string }
}

export type ExchangeAction =
  | { type: 'event'; event: AskEvent }
  | { type: 'done'; result: AskResult }
  | { type: 'error'; message: string; code?: string }

function turnOf(turns: TurnNode[], n: number): TurnNode {
  return turns.find((t) => t.turn === n) ?? { turn: n, status: 'ok', tools: true, calls: [] }
}

function withTurn(exchange: Exchange, turn: TurnNode): Exchange {
  const turns = exchange.turns.some((t) => t.turn === turn.turn)
    ? exchange.turns.map((t) => (t.turn === turn.turn ? turn : t))
    : [...exchange.turns, turn]
  return { ...exchange, turns }
}

function applyEvent(exchange: Exchange, event: AskEvent): Exchange {
  switch (event.type) {
    case 'turn-start':
      return withTurn(exchange, { turn: event.turn, status: 'running', tools: event.tools, calls: [] })
    case 'turn-end': {
      const turn = turnOf(exchange.turns, event.turn)
      const ended = { ...turn, status: event.ok ? 'ok' : 'failed', ms: event.ms, summary: event.summary } as TurnNode
      return withTurn(exchange, event.tokens !== undefined ? { ...ended, tokens: event.tokens } : ended)
    }
    case 'tool-start': {
      const turn = turnOf(exchange.turns, event.turn)
      const call: ToolNode = { call: event.call, tool: event.tool, args: event.args, status: 'running' }
      return withTurn(exchange, { ...turn, calls: [...turn.calls, call] })
    }
    case 'tool-end': {
      const turn = turnOf(exchange.turns, event.turn)
      const known = turn.calls.some((c) => c.call === event.call)
      const ended = (c: ToolNode): ToolNode => ({
        ...c,
        status: event.ok ? 'ok' : 'failed',
        ms: event.ms,
        summary: event.summary,
        passages: event.passages.length,
        ...(event.results !== undefined && { results: event.results }),
      })
      const calls = known
        ? turn.calls.map((c) => (c.call === event.call ? ended(c) : c))
        : [...turn.calls, ended({ call: event.call, tool: event.tool, args: undefined, status: 'running' })]
      return withTurn(exchange, { ...turn, calls })
    }
  }
}

export function reduceExchange(exchange: Exchange, action: ExchangeAction): Exchange {
  if (action.type === 'event') return applyEvent(exchange, action.event)
  if (action.type === 'done') return { ...exchange, status: 'done', result: action.result }
  return { ...exchange, status: 'error', error: { message: action.message, ...(action.code && { code: action.code }) } }
}

/** A finished turn of a saved conversation as an exchange: its graph rebuilt from the recorded steps. */
export function exchangeOf(result: AskResult): Exchange {
  const turns: TurnNode[] = []
  for (const step of result.steps) {
    if (step.kind === 'model') {
      const tokens = step.tokens !== undefined ? { tokens: step.tokens } : {}
      const status = step.ok ? 'ok' : 'failed'
      turns.push({
        turn: turns.length + 1,
        status,
        tools: true,
        ms: step.ms,
        summary: step.summary,
        calls: [],
        ...tokens,
      })
      continue
    }
    const owner = turns.at(-1) ?? turnOf(turns, 0)
    if (!turns.includes(owner)) turns.push(owner)
    owner.calls.push({
      call: `step-${step.n}`,
      tool: step.tool ?? 'tool',
      args: step.args,
      status: step.ok ? 'ok' : 'failed',
      ms: step.ms,
      summary: step.summary,
      passages: step.passages.length,
    })
  }
  return { question: result.question, status: 'done', turns, result }
}

const LIVE_EVENTS = new Set(['turn-start', 'turn-end', 'tool-start', 'tool-end'])

/** Turns one server-sent message of /v1/ask into an action; `step` messages repeat what the live events said. */
export function actionOf(message: StreamMessage): ExchangeAction | undefined {
  if (LIVE_EVENTS.has(message.event)) return { type: 'event', event: message.data as AskEvent }
  if (message.event === 'done') return { type: 'done', result: message.data as AskResult }
  if (message.event === 'error') {
    const body = message.data as { error?: string; code?: string }
    return { type: 'error', message: body.error ?? 'The ask failed', ...(body.code && { code: body.code }) }
  }
  return undefined
}

/**
 * Posts a question to /v1/ask with `Accept: text/event-stream` and hands each message to `onMessage` as it
 * arrives. Throws `ApiError` when the server refuses the question (bad input, an unknown conversation: 400).
 */
export function streamAsk(
  body: { question: string; conversationId?: string },
  onMessage: (message: StreamMessage) => void,
  signal: AbortSignal,
): Promise<void> {
  return postStream('/v1/ask', body, onMessage, signal)
}
