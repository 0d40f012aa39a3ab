import { render } from 'preact'
import { lazy, Suspense } from 'preact/compat'
import { useEffect, useRef, useState } from 'preact/hooks'
import { ApiError, api, getKey, onUnauthorized, setKey } from './api.js'
import { AskView } from './ask.js'
import { HistoryPanel } from './history.js'
import { SearchView } from './search.js'
import { go, parseRoute } from './route.js'
import { ToolCallsView } from './tool-calls.js'
import './styles.css'

// The reader (markdown, graph layout) loads only when a thread is opened: it is most of the page's JavaScript.
const ReaderView = lazy(() => import('./reader.js').then((m) => ({ default: m.ReaderView })))

function KeyDialog({ onDone }: { onDone: () => void }) {
  const input = useRef<HTMLInputElement>(null)
  useEffect(() => input.current?.focus(), [])
  return (
    <div class="overlay" role="dialog" aria-modal="true" aria-labelledby="key-title">
      <form
        class="dialog"
        onSubmit={(e) => {
          e.preventDefault()
          setKey(input.current!.value.trim() || null)
          onDone()
        }}
      >
        <h2 id="key-title">API key needed</h2>
        <p>
          This server asks for a key (<code>SEARCH_LAYER_API_KEYS</code>). It is kept for this tab only and sent as a
          bearer header.
        </p>
        <label for="api-key">API key</label>
        <input id="api-key" ref={input} type="password" autocomplete="off" required />
        <div class="row">
          <button type="submit" class="primary">
            Use key
          </button>
        </div>
      </form>
    </div>
  )
}

function App() {
  const [route, setRoute] = useState(() => parseRoute(location.hash))
  const [needKey, setNeedKey] = useState(false)
  const [keyVersion, setKeyVersion] = useState(0)
  const [theme, setTheme] = useState<string | null>(() => localStorage.getItem('search-layer:theme'))
  const [historyVersion, setHistoryVersion] = useState(0)
  const [pasted, setPasted] = useState('')

  useEffect(() => {
    const onHash = () => setRoute(parseRoute(location.hash))
    addEventListener('hashchange', onHash)
    return () => removeEventListener('hashchange', onHash)
  }, [])
  useEffect(() => onUnauthorized(() => setNeedKey(true)), [])
  // Ask for the key up front when the server wants one.
  useEffect(() => {
    api('/v1/history?limit=1').catch((error) => {
      if (error instanceof ApiError && error.status === 401) setNeedKey(true)
    })
  }, [keyVersion])
  useEffect(() => {
    if (theme) document.documentElement.dataset.theme = theme
    else delete document.documentElement.dataset.theme
  }, [theme])

  const toggleTheme = () => {
    const dark = theme ? theme === 'dark' : matchMedia('(prefers-color-scheme: dark)').matches
    const next = dark ? 'light' : 'dark'
    localStorage.setItem('search-layer:theme', next)
    setTheme(next)
  }

  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <a class="brand" href="#/" aria-label="search-layer home">
          search-layer
        </a>
        <nav aria-label="Views">
          <a href="#/" aria-current={route.view === 'search' ? 'page' : undefined}>
            Search
          </a>
          <a href="#/ask" aria-current={route.view === 'ask' ? 'page' : undefined}>
            Ask
          </a>
          <a href="#/tools" aria-current={route.view === 'tools' ? 'page' : undefined}>
            Tool calls
          </a>
        </nav>
        <form
          class="open-url"
          onSubmit={(e) => {
            e.preventDefault()
            if (pasted.trim()) go({ view: 'read', url: pasted.trim() })
          }}
        >
          <label class="visually-hidden" for="open-url">
            Open a thread or page by URL
          </label>
          <input
            id="open-url"
            type="url"
            placeholder="Paste an issue, PR or page URL"
            value={pasted}
            onInput={(e) => setPasted(e.currentTarget.value)}
          />
          <button type="submit">Read</button>
        </form>
        <button type="button" class="ghost" onClick={toggleTheme} aria-label="Toggle light or dark theme">
          ◐
        </button>
        {getKey() && (
          <button
            type="button"
            class="ghost"
            onClick={() => {
              setKey(null)
              setKeyVersion((v) => v + 1)
            }}
          >
            Forget key
          </button>
        )}
      </header>
      <div class="layout" key={keyVersion}>
        <main id="main" tabIndex={-1}>
          {route.view === 'search' && <SearchView route={route} onSearched={() => setHistoryVersion((v) => v + 1)} />}
          {route.view === 'tools' && <ToolCallsView />}
          {route.view === 'ask' && <AskView {...(route.c && { conversation: route.c })} />}
          {route.view === 'read' && (
            <Suspense fallback={<p class="muted">Loading the reader…</p>}>
              <ReaderView url={route.url} />
            </Suspense>
          )}
        </main>
        {route.view === 'search' && <HistoryPanel version={historyVersion} />}
      </div>
      {needKey && (
        <KeyDialog
          onDone={() => {
            setNeedKey(false)
            setKeyVersion((v) => v + 1)
          }}
        />
      )}
    </>
  )
}

render(<App />, document.getElementById('app')!)
