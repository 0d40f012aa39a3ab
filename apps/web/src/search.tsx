import { useEffect, useReducer, useRef, useState } from 'preact/hooks'
import { type ApiError, type SourceInfo, listSources, streamSearch } from './api.js'
import { type Route, isOpeningRoute } from './route.js'
import { actionFor, reduceRun } from './run-state.js'
import { RunView } from './run-view.js'

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
  /** Top pages to read for passages; 0 = none. */
  read: number
}
const AUTO: Controls = { intent: 'auto', mode: 'auto', freshness: 'auto', sources: [], read: 0 }
const READ_CHOICES = [0, 3, 5, 10]

/** The intent, mode, freshness and engine controls; each defaults to automatic. */
function SearchControls({
  controls,
  setControls,
}: {
  controls: Controls
  setControls: (c: Controls | ((c: Controls) => Controls)) => void
}) {
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
      <label>
        Read pages
        <select
          value={String(controls.read)}
          onChange={(e) => setControls({ ...controls, read: Number(e.currentTarget.value) })}
        >
          {READ_CHOICES.map((n) => (
            <option key={n} value={String(n)}>
              {n === 0 ? 'none' : `top ${n}`}
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

/** The search box, its controls, and one streamed search at a time. */
export function SearchView({
  route,
  onSearched,
}: {
  route: Extract<Route, { view: 'search' }>
  onSearched: () => void
}) {
  const initialQuery = route.q
  const [query, setQuery] = useState(initialQuery ?? '')
  const [controls, setControls] = useState<Controls>(AUTO)
  const [run, dispatch] = useReducer(reduceRun, null)
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
      ...(c.read > 0 && { read: c.read }),
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
      {/* biome-ignore lint/a11y/useSemanticElements: not every screen reader announces the <search> element (2023) yet; they do a form with role="search" */}
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
