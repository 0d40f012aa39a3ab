import { useEffect, useState } from 'preact/hooks'
import { api } from './api.js'
import { go, hrefOf } from './route.js'
import type { HistoryEntry } from '@search-layer/server'

/** The caller's recent searches from /v1/history: re-run or delete one, or clear them all. */
export function HistoryPanel({ version }: { version: number }) {
  const [entries, setEntries] = useState<HistoryEntry[] | null>(null)
  const [error, setError] = useState<string | null>(null)
  const load = () =>
    api<{ entries: HistoryEntry[] }>('/v1/history?limit=30')
      .then((r) => {
        setEntries(r.entries)
        setError(null)
      })
      .catch((e: Error) => setError(e.message))
  useEffect(() => {
    void load()
  }, [version])

  return (
    <aside class="history" aria-labelledby="history-title">
      <div class="history-head">
        <h2 id="history-title">History</h2>
        {entries && entries.length > 0 && (
          <button
            type="button"
            class="ghost"
            onClick={async () => {
              await api('/v1/history', { method: 'DELETE' }).catch((e: Error) => setError(e.message))
              await load()
            }}
          >
            Delete all
          </button>
        )}
      </div>
      {error && <p class="muted">{error}</p>}
      {entries && entries.length === 0 && <p class="muted">No searches yet.</p>}
      <ul>
        {entries?.map((e, i) => {
          const route = {
            view: 'search' as const,
            q: e.query,
            ...(e.intent && { intent: e.intent, mode: e.mode }),
          }
          return (
            <li key={`${e.when}-${i}`}>
              <a
                href={hrefOf(route)}
                // A fresh nonce, so re-running the search already on screen runs it again.
                onClick={(event) => {
                  event.preventDefault()
                  go({ ...route, n: String(Date.now()) })
                }}
                aria-label={`Re-run “${e.query}”`}
              >
                {e.query}
              </a>
              <span class="muted">
                {e.intent ?? 'no intent'} · {e.mode} · {e.count} results ·{' '}
                <time dateTime={e.when}>{e.when.slice(11, 16)}</time>
              </span>
              <button
                type="button"
                class="ghost small"
                aria-label={`Delete “${e.query}” from history`}
                onClick={async () => {
                  await api(`/v1/history?when=${encodeURIComponent(e.when)}`, { method: 'DELETE' }).catch(
                    (error: Error) => setError(error.message),
                  )
                  await load()
                }}
              >
                Delete
              </button>
            </li>
          )
        })}
      </ul>
    </aside>
  )
}
