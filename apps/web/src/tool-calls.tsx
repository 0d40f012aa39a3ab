import { useEffect, useState } from 'preact/hooks'
import { api } from './api.js'
import type { ToolCallEntry } from '@search-layer/server'

const prettyArgs = (args: string) => {
  try {
    return JSON.stringify(JSON.parse(args), null, 2)
  } catch {
    return args
  }
}

/**
 * The calls agents made through /api/tools and /mcp with this key: a timeline of tool nodes, oldest first, each with
 * its inputs, timing and outcome, and a bar on a shared time axis.
 */
export function ToolCallsView() {
  const [calls, setCalls] = useState<ToolCallEntry[] | null>(null)
  const [error, setError] = useState<string | null>(null)
  const load = () =>
    api<{ entries: ToolCallEntry[] }>('/v1/tool-calls?limit=100')
      .then((r) => {
        setCalls(r.entries.slice().reverse())
        setError(null)
      })
      .catch((e: Error) => setError(e.message))
  useEffect(() => {
    void load()
  }, [])

  const first = calls?.length ? Date.parse(calls[0]!.at) : 0
  const last = calls?.length ? Math.max(...calls.map((c) => Date.parse(c.at) + c.ms)) : 1
  const span = Math.max(1, last - first)
  const pct = (ms: number) => `${Math.min(100, (ms / span) * 100).toFixed(2)}%`

  return (
    <section class="tool-calls" aria-labelledby="tools-title">
      <div class="row between">
        <h1 id="tools-title">Tool calls</h1>
        <div class="row">
          <button type="button" onClick={() => void load()}>
            Refresh
          </button>
          {calls && calls.length > 0 && (
            <button
              type="button"
              class="ghost"
              onClick={async () => {
                await api('/v1/tool-calls', { method: 'DELETE' }).catch((e: Error) => setError(e.message))
                await load()
              }}
            >
              Delete all
            </button>
          )}
        </div>
      </div>
      <p class="muted">
        What agents asked through <code>/api/tools/*</code> and <code>/mcp</code> with this key, oldest first.
      </p>
      {error && (
        <p class="warnings error" role="alert">
          {error}
        </p>
      )}
      {calls && calls.length === 0 && <p class="muted">No tool calls yet.</p>}
      <ol class="timeline">
        {calls?.map((call) => {
          const offset = Date.parse(call.at) - first
          return (
            <li key={call.id} class={`tool-node outcome-${call.outcome}`} data-tool={call.tool}>
              <div class="node-head">
                <span class="node-dot" aria-hidden="true" />
                <strong>{call.tool}</strong>
                <span class="tag">{call.via === 'mcp' ? 'MCP' : 'HTTP'}</span>
                <span class={`outcome outcome-${call.outcome}`}>{call.outcome}</span>
                <span class="muted">
                  {call.ms} ms · <time dateTime={call.at}>{new Date(call.at).toLocaleTimeString()}</time>
                </span>
              </div>
              <div class="node-track" aria-hidden="true">
                <span class="bar" style={{ left: pct(offset), width: pct(Math.max(span / 200, call.ms)) }} />
              </div>
              <details>
                <summary>Inputs and result</summary>
                <pre class="args">{prettyArgs(call.args)}</pre>
                <p class="summary">{call.summary}</p>
              </details>
            </li>
          )
        })}
      </ol>
    </section>
  )
}
