import type { EngineRun } from './engines.js'
import type { SearchPlan, SearchProgress, SearchResponse, SearchResultOut } from '@search-layer/engine'

// One streamed search as page state: what each event of the stream changes.

/** Everything one streamed search has told the page so far. */
export interface Run {
  status: 'running' | 'done' | 'error'
  query: string
  plan?: SearchPlan
  engines: Record<string, EngineRun>
  results: SearchResultOut[]
  answer?: string
  answerSource?: string
  answered: string[]
  firstResultMs?: number
  response?: SearchResponse
  error?: { message: string; code?: string }
}

export type Action =
  | { type: 'start'; query: string }
  | { type: 'plan'; plan: SearchPlan }
  | { type: 'progress'; progress: SearchProgress; elapsed: number }
  | {
      type: 'results'
      results: SearchResultOut[]
      answer?: string
      answer_source?: string
      answered: string[]
      elapsed: number
    }
  | { type: 'done'; response: SearchResponse }
  | { type: 'error'; message: string; code?: string }

function engineFor(run: Run, name: string): EngineRun {
  return run.engines[name] ?? { name, role: 'primary', why: '', calls: [] }
}

export function reduceRun(run: Run | null, action: Action): Run | null {
  if (action.type === 'start') return { status: 'running', query: action.query, engines: {}, results: [], answered: [] }
  if (!run) return run
  switch (action.type) {
    case 'plan': {
      const engines: Record<string, EngineRun> = {}
      for (const e of action.plan.engines)
        engines[e.name] = {
          name: e.name,
          role: e.role,
          why: e.why,
          standIns: e.stand_ins,
          ...(e.fallback_for && { fallbackFor: e.fallback_for }),
          calls: [],
        }
      return { ...run, plan: action.plan, engines }
    }
    case 'progress': {
      const p = action.progress
      const engine = engineFor(run, p.provider)
      let next: EngineRun = engine
      if (p.type === 'started')
        next = {
          ...engine,
          role: engine.role === 'skipped' ? 'stand-in' : engine.role,
          calls: [...engine.calls, { query: p.query, startMs: action.elapsed, state: 'running' }],
        }
      else if (p.type === 'skipped') next = { ...engine, role: 'skipped', why: p.reason }
      else {
        const calls = engine.calls.map((c) =>
          c.query === p.query && c.state === 'running'
            ? p.type === 'done'
              ? { ...c, state: 'ok' as const, endMs: action.elapsed, results: p.results }
              : { ...c, state: 'failed' as const, endMs: action.elapsed, error: `${p.kind}: ${p.message}` }
            : c,
        )
        next = { ...engine, calls }
      }
      return { ...run, engines: { ...run.engines, [p.provider]: next } }
    }
    case 'results':
      return {
        ...run,
        results: action.results,
        answered: action.answered,
        ...(action.answer && { answer: action.answer, answerSource: action.answer_source }),
        firstResultMs: run.firstResultMs ?? (action.results.length ? action.elapsed : undefined),
      }
    case 'done': {
      const r = action.response
      return {
        ...run,
        status: 'done',
        response: r,
        results: r.results,
        ...(r.answer && { answer: r.answer, answerSource: r.answer_source }),
      }
    }
    case 'error':
      return { ...run, status: 'error', error: { message: action.message, code: action.code } }
  }
}

/** The state change a streamed event makes; undefined for an event the page does not use. */
export function actionFor(event: string, d: Record<string, unknown>): Action | undefined {
  switch (event) {
    case 'plan':
      return { type: 'plan', plan: d as unknown as SearchPlan }
    case 'progress':
      return { type: 'progress', progress: d.progress as SearchProgress, elapsed: d.elapsed_ms as number }
    case 'results':
      return {
        type: 'results',
        results: d.results as SearchResultOut[],
        answer: d.answer as string | undefined,
        answer_source: d.answer_source as string | undefined,
        answered: d.answered as string[],
        elapsed: d.elapsed_ms as number,
      }
    case 'done':
    // The response again, with the late engines' results merged in (the server lets late calls finish).
    case 'update':
      return { type: 'done', response: d.response as SearchResponse }
    case 'error':
      return { type: 'error', message: String(d.error), code: d.code as string }
    default:
      return undefined
  }
}
