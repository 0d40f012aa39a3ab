import { useEffect, useReducer, useRef, useState } from 'preact/hooks'
import { ApiError, listSources, type SourceInfo, streamSearch } from './api.js'
import { type EngineRun, EngineStrip } from './engines.js'
import { renderMarkdown } from './markdown.js'
import { type Route, hrefOf, isOpeningRoute, isThreadUrl } from './route.js'
import type { KeylessOnly, Plan, Progress, Result, SearchResponse } from './types.js'

const INTENTS = ['factual', 'status', 'comparison', 'tutorial', 'exploratory', 'news', 'resource']
const MODES = ['fast', 'deep', 'answer']
const FRESHNESS: [string, string][] = [
  ['pd', 'past day'],
  ['pw', 'past week'],
  ['pm', 'past month'],
  ['py', 'past year'],
]

interface Controls {
  intent: string
  mode: string
  freshness: string
  sources: string[]
}
const AUTO: Controls = { intent: 'auto', mode: 'auto', freshness: 'auto', sources: [] }

/** Everything one streamed search has told the page so far. */
interface Run {
  status: 'running' | 'done' | 'error'
  query: string
  plan?: Plan
  engines: Record<string, EngineRun>
  results: Result[]
  answer?: string
  answerSource?: string
  answered: string[]
  firstResultMs?: number
  response?: SearchResponse
  error?: { message: string; code?: string }
}

type Action =
  | { type: 'start'; query: string }
  | { type: 'plan'; plan: Plan }
  | { type: 'progress'; progress: Progress; elapsed: number }
  | { type: 'results'; results: Result[]; answer?: string; answer_source?: string; answered: string[]; elapsed: number }
  | { type: 'done'; response: SearchResponse }
  | { type: 'error'; message: string; code?: string }

function engineFor(run: Run, name: string): EngineRun {
  return run.engines[name] ?? { name, role: 'primary', why: '', calls: [] }
}

function reduce(run: Run | null, action: Action): Run | null {
  if (action.type === 'start')
    return { status: 'running', query: action.query, engines: {}, results: [], answered: [] }
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
        next = { ...engine, role: engine.role === 'skipped' ? 'stand-in' : engine.role, calls: [...engine.calls, { query: p.query, startMs: action.elapsed, state: 'running' }] }
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

const hostOf = (url: string) => {
  try {
    return new URL(url).hostname.replace(/^www\./, '')
  } catch {
    return url
  }
}

function ResultItem({ result, rank }: { result: Result; rank: number }) {
  return (
    <li class="result">
      <div class="result-head">
        <span class="rank" aria-hidden="true">
          {rank}
        </span>
        <a class="result-title" href={result.url} target="_blank" rel="noopener noreferrer">
          {result.title || result.url}
        </a>
      </div>
      <div class="result-meta">
        <span class="site">{hostOf(result.url)}</span>
        {result.published_date && <time dateTime={result.published_date}>{result.published_date.slice(0, 10)}</time>}
        <span class="tags" aria-label={`Found by ${result.sources.join(', ')}`}>
          {result.sources.map((s) => (
            <span class={`tag engine-${s}`} key={s}>
              {s}
            </span>
          ))}
        </span>
        {result.sources.length > 1 && <span class="agree">{result.sources.length} engines agree</span>}
        {result.score !== undefined && <span class="score">score {result.score.toFixed(2)}</span>}
      </div>
      <p class="snippet">{result.snippet}</p>
      <div class="result-actions">
        <a href={hrefOf({ view: 'read', url: result.url })} class="read-link">
          {isThreadUrl(result.url) ? 'Open thread & references' : 'Read page'}
        </a>
        {result.explain && (
          <details>
            <summary>Why this score</summary>
            <table class="explain">
              <tbody>
                {Object.entries(result.explain).map(([k, v]) => (
                  <tr key={k}>
                    <th scope="row">{k.replace(/_/g, ' ')}</th>
                    <td>{Number.isInteger(v) ? v : v.toFixed(3)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </details>
        )}
      </div>
    </li>
  )
}

function Warnings({ run }: { run: Run }) {
  const r = run.response
  const items: { text: string; level: 'warn' | 'error' }[] = []
  if (run.error) items.push({ text: run.error.message, level: 'error' })
  if (r) {
    const failed = Object.entries(r.providers).filter(([, p]) => p.status === 'error')
    const asked = Object.values(r.providers).filter((p) => p.status !== 'skipped')
    if (asked.length > 0 && failed.length === asked.length)
      items.push({ text: 'Every engine failed: no results. See the engine strip for what each said.', level: 'error' })
    else if (r.partial)
      items.push({
        text: `Partial results: ${failed.map(([n, p]) => `${n} (${p.error?.kind ?? 'error'})`).join(', ') || 'some calls'} did not answer.`,
        level: 'warn',
      })
    if (r.cached) items.push({ text: 'Answered from the cache.', level: 'warn' })
    for (const w of r.warnings) items.push({ text: w, level: 'warn' })
  } else if (run.plan) for (const w of run.plan.warnings) items.push({ text: w, level: 'warn' })
  if (items.length === 0) return null
  return (
    <ul class="warnings" aria-label="Warnings">
      {items.map((item, i) => (
        <li key={i} class={item.level} role={item.level === 'error' ? 'alert' : 'status'}>
          {item.text}
        </li>
      ))}
    </ul>
  )
}

/**
 * A search with no engine key still answers, from keyless sources: say which answered and which variables add
 * engines, as information beside the results rather than a warning (nothing went wrong).
 */
function KeylessNotice({ notice }: { notice: KeylessOnly }) {
  return (
    <aside class="notice" aria-labelledby="keyless-title">
      <h2 id="keyless-title">Keyless sources only</h2>
      <p>
        These results come from {notice.sources.join(', ')}, which need no key. For more engines, set{' '}
        {notice.set.map((name, i) => (
          <span key={name}>
            {i > 0 && (i === notice.set.length - 1 ? ' or ' : ', ')}
            <code>{name}</code>
          </span>
        ))}{' '}
        where the server runs.
      </p>
    </aside>
  )
}

function PlanView({ plan }: { plan: Plan }) {
  return (
    <details class="plan" open>
      <summary>
        Plan: <strong>{plan.intent ?? 'no intent'}</strong> · {plan.mode} mode
        {plan.freshness && ` · ${plan.freshness}`} · {plan.queries.length} quer{plan.queries.length === 1 ? 'y' : 'ies'}
      </summary>
      <dl>
        <dt>Intent</dt>
        <dd>{plan.intent_why}</dd>
        <dt>Mode</dt>
        <dd>{plan.mode_why}</dd>
        <dt>Sub-queries</dt>
        <dd>
          <ol class="queries">
            {plan.queries.map((q) => (
              <li key={q}>{q}</li>
            ))}
          </ol>
        </dd>
        <dt>Engines</dt>
        <dd>
          <ul class="plan-engines">
            {plan.engines.map((e) => (
              <li key={e.name}>
                <strong>{e.name}</strong> — {e.role}: {e.why}
                {e.stand_ins.length > 0 && <span class="muted"> (if it fails: {e.stand_ins.join(', ')})</span>}
              </li>
            ))}
          </ul>
        </dd>
      </dl>
    </details>
  )
}

function Answer({ run }: { run: Run }) {
  if (!run.answer) return null
  const cited = run.results.slice(0, 3)
  return (
    <section class="answer" aria-labelledby="answer-title">
      <h2 id="answer-title">Answer {run.answerSource && <span class="muted">from {run.answerSource}</span>}</h2>
      {/* Providers write answers in markdown; renderMarkdown makes untrusted text safe (see markdown.ts). */}
      <div class="markdown" dangerouslySetInnerHTML={{ __html: renderMarkdown(run.answer) }} />
      {cited.length > 0 && (
        <ol class="citations" aria-label="Sources">
          {cited.map((r) => (
            <li key={r.url}>
              <a href={r.url} target="_blank" rel="noopener noreferrer">
                {r.title || hostOf(r.url)}
              </a>{' '}
              <span class="muted">{hostOf(r.url)}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}

/** The intent, mode, freshness and engine controls; each defaults to automatic. */
function SearchControls({ controls, setControls }: { controls: Controls; setControls: (c: Controls | ((c: Controls) => Controls)) => void }) {
  const toggleSource = (name: string) =>
    setControls((c) => ({
      ...c,
      sources: c.sources.includes(name) ? c.sources.filter((s) => s !== name) : [...c.sources, name],
    }))
  const [sources, setSources] = useState<SourceInfo[]>([])
  useEffect(() => {
    const controller = new AbortController()
    void listSources(controller.signal).then((list) => {
      if (!controller.signal.aborted) setSources(list)
    })
    return () => controller.abort()
  }, [])
  return (
    <div class="controls">
      <label>
        Intent
        <select value={controls.intent} onChange={(e) => setControls({ ...controls, intent: e.currentTarget.value })}>
          <option value="auto">automatic</option>
          {INTENTS.map((i) => (
            <option key={i} value={i}>
              {i}
            </option>
          ))}
        </select>
      </label>
      <label>
        Mode
        <select value={controls.mode} onChange={(e) => setControls({ ...controls, mode: e.currentTarget.value })}>
          <option value="auto">automatic</option>
          {MODES.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
      </label>
      <label>
        Freshness
        <select
          value={controls.freshness}
          onChange={(e) => setControls({ ...controls, freshness: e.currentTarget.value })}
        >
          <option value="auto">automatic</option>
          {FRESHNESS.map(([v, label]) => (
            <option key={v} value={v}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <fieldset class="sources">
        <legend>Sources {controls.sources.length === 0 && <span class="muted">(automatic)</span>}</legend>
        {sources.map(({ name, resting }) => (
          <label key={name} class="check">
            <input type="checkbox" checked={controls.sources.includes(name)} onChange={() => toggleSource(name)} />
            {name}
            {resting && <span class="muted"> (resting)</span>}
          </label>
        ))}
      </fieldset>
    </div>
  )
}

/** One search as it streams in: status, warnings, engine waterfall, plan, answer and results. */
function RunView({ run }: { run: Run }) {
  return (
    <div class="run" aria-busy={run.status === 'running'}>
      <p class="status-line" role="status">
        {run.status === 'running'
          ? `Searching “${run.query}”… ${run.results.length ? `${run.results.length} results so far` : ''}`
          : run.status === 'done'
            ? `${run.response!.count} results in ${run.response!.timing.total_ms} ms${run.firstResultMs !== undefined ? ` · first results after ${run.firstResultMs} ms` : ''}`
            : 'Search failed'}
      </p>
      <Warnings run={run} />
      {Object.keys(run.engines).length > 0 && (
        <EngineStrip
          engines={Object.values(run.engines)}
          totalMs={run.response?.timing.total_ms}
          reports={run.response?.providers}
        />
      )}
      {run.plan && <PlanView plan={run.plan} />}
      <Answer run={run} />
      {run.response?.keyless_only && <KeylessNotice notice={run.response.keyless_only} />}
      {run.results.length > 0 && (
        <section aria-labelledby="results-title">
          <h2 id="results-title" class="visually-hidden">
            Results
          </h2>
          <ol class="results" data-answered={run.answered.join(',')}>
            {run.results.map((r, i) => (
              <ResultItem key={r.url} result={r} rank={i + 1} />
            ))}
          </ol>
        </section>
      )}
    </div>
  )
}

/** The state change a streamed event makes; undefined for an event the page does not use. */
function actionFor(event: string, d: Record<string, unknown>): Action | undefined {
  switch (event) {
    case 'plan':
      return { type: 'plan', plan: d as unknown as Plan }
    case 'progress':
      return { type: 'progress', progress: d.progress as Progress, elapsed: d.elapsed_ms as number }
    case 'results':
      return {
        type: 'results',
        results: d.results as Result[],
        answer: d.answer as string | undefined,
        answer_source: d.answer_source as string | undefined,
        answered: d.answered as string[],
        elapsed: d.elapsed_ms as number,
      }
    case 'done':
      return { type: 'done', response: d.response as SearchResponse }
    case 'error':
      return { type: 'error', message: String(d.error), code: d.code as string }
    default:
      return undefined
  }
}

/** The search box, its controls, and one streamed search at a time. */
export function SearchView({ route, onSearched }: { route: Extract<Route, { view: 'search' }>; onSearched: () => void }) {
  const initialQuery = route.q
  const [query, setQuery] = useState(initialQuery ?? '')
  const [controls, setControls] = useState<Controls>(AUTO)
  const [run, dispatch] = useReducer(reduce, null)
  const [waiting, setWaiting] = useState(false)
  const box = useRef<HTMLInputElement>(null)
  const current = useRef<AbortController | null>(null)

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement
      if (e.key === '/' && !/^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName) && !target.isContentEditable) {
        e.preventDefault()
        box.current?.focus()
      }
    }
    addEventListener('keydown', onKey)
    return () => removeEventListener('keydown', onKey)
  }, [])

  const start = async (q: string, c: Controls = controls) => {
    if (!q.trim()) return
    setWaiting(false)
    current.current?.abort()
    const controller = new AbortController()
    current.current = controller
    dispatch({ type: 'start', query: q })
    const request = {
      query: q,
      explain: true,
      intent: c.intent,
      ...(c.mode !== 'auto' && { mode: c.mode }),
      ...(c.freshness !== 'auto' && { freshness: c.freshness }),
      ...(c.sources.length > 0 && { sources: c.sources }),
    }
    try {
      await streamSearch(
        request,
        ({ event, data }) => {
          if (controller.signal.aborted) return
          const action = actionFor(event, data as Record<string, unknown>)
          if (action) dispatch(action)
        },
        controller.signal,
      )
      if (!controller.signal.aborted) onSearched()
    } catch (error) {
      if (controller.signal.aborted) return
      const e = error as ApiError
      dispatch({ type: 'error', message: e.message, code: e.code })
    }
  }

  useEffect(() => {
    if (initialQuery) {
      // A history re-run keeps the intent and mode the search had.
      const c = { ...AUTO, ...(route.intent && { intent: route.intent }), ...(route.mode && { mode: route.mode }) }
      setQuery(initialQuery)
      setControls(c)
      if (isOpeningRoute()) setWaiting(true)
      else void start(initialQuery, c)
    }
  }, [initialQuery, route.intent, route.mode, route.n])

  return (
    <div class="search-view">
      <form
        role="search"
        class="search-form"
        onSubmit={(e) => {
          e.preventDefault()
          void start(query)
        }}
      >
        <label for="q" class="visually-hidden">
          Search the web
        </label>
        <input
          id="q"
          ref={box}
          type="search"
          value={query}
          onInput={(e) => setQuery(e.currentTarget.value)}
          placeholder="Search — press / to focus"
          autocomplete="off"
          // biome-ignore lint/a11y/noAutofocus: the page is a search box first
          autoFocus
        />
        <button type="submit" class="primary">
          Search
        </button>
        <SearchControls controls={controls} setControls={setControls} />
      </form>
      {waiting && (
        <p class="muted" role="note">
          Opened from a link: press Enter or Search to run it.
        </p>
      )}

      {run && <RunView run={run} />}
    </div>
  )
}
