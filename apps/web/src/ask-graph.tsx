import type { Exchange, ToolNode, TurnNode } from './ask-state.js'

// The execution graph of one question, drawn live from /v1/ask's events: question → model turns, each with the tool
// calls it asked for → answer. HTML rather than SVG: the shape is a chain, and text stays selectable and readable
// by screen readers.

const TOOL_LABEL: Record<string, string> = { web_search: 'search', web_fetch: 'fetch', fetch_thread: 'thread' }

const seconds = (ms: number | undefined) =>
  ms === undefined ? '' : ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`

const clip = (text: string, n: number) => (text.length > n ? `${text.slice(0, n - 1)}…` : text)

/** The one argument worth showing: the query or the address. */
function argumentOf(args: unknown): string {
  if (!args || typeof args !== 'object') return ''
  const a = args as { query?: unknown; url?: unknown }
  const value = typeof a.query === 'string' ? a.query : typeof a.url === 'string' ? a.url : ''
  return clip(value, 90)
}

function ToolBox({ node }: { node: ToolNode }) {
  const arg = argumentOf(node.args)
  const label = TOOL_LABEL[node.tool] ?? 'tool'
  return (
    <li
      class={`g-node g-tool status-${node.status}`}
      data-node="tool"
      data-tool={node.tool}
      data-status={node.status}
      aria-label={`${node.tool} ${arg}: ${node.status === 'running' ? 'running' : (node.summary ?? node.status)}`}
    >
      <div class="g-head">
        <span class="g-kind">{label}</span> <code>{node.tool}</code>
        <span class="g-time">{node.status === 'running' ? 'running…' : seconds(node.ms)}</span>
      </div>
      {arg && <div class="g-arg">{arg}</div>}
      {node.summary && <div class="g-summary">{clip(node.summary, 160)}</div>}
    </li>
  )
}

function TurnBox({ node }: { node: TurnNode }) {
  const extractive = node.turn === 0
  const title = extractive ? 'Extractive answer' : `Model turn ${node.turn}`
  return (
    <li class="g-step" data-turn={node.turn}>
      <div
        class={`g-node g-model status-${node.status}`}
        data-node={extractive ? 'extractive' : 'model'}
        data-status={node.status}
      >
        <div class="g-head">
          <span class="g-kind">{title}</span>
          <span class="g-time">{node.status === 'running' ? 'thinking…' : seconds(node.ms)}</span>
        </div>
        <div class="g-summary">
          {extractive
            ? 'searches for the question, quotes the best passages'
            : (node.summary ?? (node.tools ? 'may search and read' : 'answers from what it has'))}
          {node.tokens !== undefined && ` · ${node.tokens} tokens`}
        </div>
      </div>
      {node.calls.length > 0 && (
        <ul class="g-tools" aria-label={`Tool calls of ${title.toLowerCase()}`}>
          {node.calls.map((c) => (
            <ToolBox key={c.call} node={c} />
          ))}
        </ul>
      )}
    </li>
  )
}

function AnswerBox({ exchange }: { exchange: Exchange }) {
  const result = exchange.result
  const status = exchange.status === 'running' ? 'running' : exchange.status === 'error' ? 'failed' : 'ok'
  let text = 'waiting for the answer…'
  if (exchange.error) text = exchange.error.message
  else if (result) {
    const c = result.counts
    text = result.abstained
      ? 'abstained: nothing read supports an answer'
      : `${result.mode} · ${c.supported} supported · ${c.unverified} unverified · ${c.uncited} uncited`
  }
  return (
    <li class="g-step">
      <div class={`g-node g-answer status-${status}`} data-node="answer" data-status={status}>
        <div class="g-head">
          <span class="g-kind">Answer</span>
          <span class="g-time">{result ? seconds(result.usage.timeMs.used) : ''}</span>
        </div>
        <div class="g-summary">{text}</div>
      </div>
    </li>
  )
}

/** The live execution graph of one question. */
export function AskGraph({ exchange }: { exchange: Exchange }) {
  return (
    <ol class="ask-graph" aria-label="Execution graph">
      <li class="g-step">
        <div class="g-node g-question" data-node="question">
          <div class="g-head">
            <span class="g-kind">Question</span>
          </div>
          <div class="g-summary">{clip(exchange.question, 160)}</div>
        </div>
      </li>
      {exchange.turns.map((t) => (
        <TurnBox key={t.turn} node={t} />
      ))}
      <AnswerBox exchange={exchange} />
    </ol>
  )
}
