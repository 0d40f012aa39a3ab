import { EngineStrip } from './engines.js'
import { renderMarkdown } from './markdown.js'
import { ResultPassages } from './passages.js'
import { hrefOf, isThreadUrl } from './route.js'
import type { Run } from './run-state.js'
import type { KeylessOnlyNotice, SearchPlan, SearchResultOut } from '@search-layer/engine'

const hostOf = (url: string) => {
  try {
    return new URL(url).hostname.replace(/^www\./, '')
  } catch {
    return url
  }
}

type Passages = NonNullable<Run['response']>['passages']

function ResultItem({
  result,
  rank,
  passages,
  query,
}: {
  result: SearchResultOut
  rank: number
  passages: Passages
  query: string
}) {
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
        <span class="tags">
          <span class="visually-hidden">Found by </span>
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
      <ResultPassages passages={(passages ?? []).filter((p) => p.url === result.url)} query={query} />
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
function KeylessNotice({ notice }: { notice: KeylessOnlyNotice }) {
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

function PlanView({ plan }: { plan: SearchPlan }) {
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

/** One search as it streams in: status, warnings, engine waterfall, plan, answer and results. */
export function RunView({ run }: { run: Run }) {
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
              <ResultItem key={r.url} result={r} rank={i + 1} passages={run.response?.passages} query={run.query} />
            ))}
          </ol>
        </section>
      )}
    </div>
  )
}
