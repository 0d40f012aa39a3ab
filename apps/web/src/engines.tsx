import type { ProviderReport } from '@search-layer/engine'

/** One provider call as the stream reported it, in ms since the search started. */
interface EngineCall {
  query: string
  startMs: number
  endMs?: number
  state: 'running' | 'ok' | 'failed'
  results?: number
  error?: string
}

export interface EngineRun {
  name: string
  role: 'primary' | 'stand-in' | 'skipped'
  why: string
  fallbackFor?: string
  standIns?: string[]
  calls: EngineCall[]
}

function statusOf(engine: EngineRun, report?: ProviderReport): { label: string; tone: string } {
  if (report?.status === 'error') return { label: `failed: ${report.error?.kind ?? 'error'}`, tone: 'bad' }
  if (engine.role === 'skipped' && engine.calls.length === 0) return { label: 'skipped', tone: 'idle' }
  if (engine.calls.some((c) => c.state === 'running')) return { label: 'searching…', tone: 'busy' }
  if (engine.calls.length > 0 && engine.calls.every((c) => c.state === 'failed'))
    return { label: 'failed', tone: 'bad' }
  if (engine.calls.some((c) => c.state === 'failed')) return { label: 'partly failed', tone: 'warn' }
  if (engine.calls.length > 0) return { label: 'answered', tone: 'good' }
  return { label: 'waiting', tone: 'busy' }
}

/** Each engine's status, result count and timing, with its calls drawn as a waterfall on one time axis. */
export function EngineStrip({
  engines,
  totalMs,
  reports,
}: {
  engines: EngineRun[]
  totalMs?: number
  reports?: Record<string, ProviderReport>
}) {
  const ends = engines.flatMap((e) => e.calls.map((c) => c.endMs ?? c.startMs))
  const axis = Math.max(totalMs ?? 0, ...ends, 1)
  const pct = (ms: number) => `${Math.min(100, (ms / axis) * 100).toFixed(2)}%`
  return (
    <section class="engines" aria-labelledby="engines-title">
      <h2 id="engines-title">Engines</h2>
      <ul>
        {engines.map((engine) => {
          const report = reports?.[engine.name]
          const status = statusOf(engine, report)
          const results = engine.calls.reduce((n, c) => n + (c.results ?? 0), 0)
          const slowest = Math.max(0, ...engine.calls.map((c) => (c.endMs ?? c.startMs) - c.startMs))
          const failure = engine.calls.find((c) => c.error)?.error ?? report?.error?.message
          return (
            <li
              key={engine.name}
              class={`engine tone-${status.tone}`}
              data-engine={engine.name}
              data-status={status.tone}
            >
              <div class="engine-name">
                <strong>{engine.name}</strong>
                <span class="engine-status">{status.label}</span>
              </div>
              <div class="engine-figures">
                {engine.calls.length > 0 ? (
                  <>
                    <span>{results} results</span>
                    <span>{slowest} ms</span>
                  </>
                ) : (
                  <span class="muted">{engine.why}</span>
                )}
                {engine.fallbackFor && <span class="muted">stands in for {engine.fallbackFor}</span>}
              </div>
              <div
                class="waterfall"
                role="img"
                aria-label={`${engine.name}: ${engine.calls.length} calls, slowest ${slowest} ms`}
              >
                {engine.calls.map((c, i) => (
                  <span
                    key={i}
                    class={`bar bar-${c.state}`}
                    style={{ left: pct(c.startMs), width: pct(Math.max(axis / 200, (c.endMs ?? axis) - c.startMs)) }}
                    title={`${c.query}: ${c.state}${c.endMs !== undefined ? ` in ${c.endMs - c.startMs} ms` : ''}${c.error ? ` — ${c.error}` : ''}`}
                  />
                ))}
              </div>
              {failure && <p class="engine-error">{failure}</p>}
            </li>
          )
        })}
      </ul>
    </section>
  )
}
