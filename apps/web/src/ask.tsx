import { useEffect, useRef, useState } from 'preact/hooks'
import type { AskResult } from '@search-layer/ask'
import { ApiError, api } from './api.js'
import { AskAnswer } from './ask-answer.js'
import { AskGraph } from './ask-graph.js'
import { type Exchange, type ExchangeAction, actionOf, exchangeOf, reduceExchange, streamAsk } from './ask-state.js'
import { hrefOf } from './route.js'
import './ask.css'

// The Ask view: a question box, then for each question of the conversation its live execution graph and its
// checked answer. A follow-up carries the conversation id, so the model sees the earlier turns and their passages.

const MAX_QUESTION_CHARS = 2_000

function ExchangeView({ exchange, index }: { exchange: Exchange; index: number }) {
  return (
    <article class="exchange" aria-label={`Question ${index + 1}`} data-status={exchange.status}>
      <h2 class="exchange-question">{exchange.question}</h2>
      <AskGraph exchange={exchange} />
      {exchange.result && <AskAnswer result={exchange.result} />}
      {exchange.error && (
        <p class="notice error" role="alert">
          {exchange.error.message}
        </p>
      )}
    </article>
  )
}

/** Keeps the conversation in the address (so a reload or a bookmark comes back to it) without a history entry. */
const showConversation = (id: string | undefined) =>
  history.replaceState(null, '', hrefOf(id ? { view: 'ask', c: id } : { view: 'ask' }))

/** Loads a saved conversation of this caller: its turns as finished exchanges. */
function useSavedConversation(
  id: string | undefined,
  onLoaded: (id: string, exchanges: Exchange[]) => void,
  onMissing: (message: string) => void,
) {
  useEffect(() => {
    if (!id) return
    const abort = new AbortController()
    api<{ id: string; turns: AskResult[] }>(`/v1/conversations/${encodeURIComponent(id)}`, { signal: abort.signal })
      .then((c) => onLoaded(c.id, c.turns.map(exchangeOf)))
      .catch((error: unknown) => {
        if (abort.signal.aborted) return
        const message = error instanceof ApiError ? error.message : String(error)
        onMissing(`Could not open conversation ${id}: ${message}`)
      })
    return () => abort.abort()
  }, [id])
}

export function AskView({ conversation }: { conversation?: string }) {
  const [question, setQuestion] = useState('')
  const [exchanges, setExchanges] = useState<Exchange[]>([])
  const [conversationId, setConversationId] = useState<string | undefined>()
  const [notice, setNotice] = useState<string | undefined>()
  const controller = useRef<AbortController | null>(null)
  const input = useRef<HTMLTextAreaElement>(null)
  const running = exchanges.at(-1)?.status === 'running'

  useEffect(() => {
    input.current?.focus()
    return () => controller.current?.abort()
  }, [])
  useSavedConversation(
    conversation,
    (id, saved) => {
      setExchanges(saved)
      setConversationId(id)
    },
    (message) => {
      setNotice(message)
      showConversation(undefined)
    },
  )

  // Each action changes the newest exchange only: earlier ones are finished.
  const dispatch = (action: ExchangeAction) =>
    setExchanges((all) => {
      const last = all.at(-1)
      return last ? [...all.slice(0, -1), reduceExchange(last, action)] : all
    })

  const ask = async (text: string) => {
    controller.current?.abort()
    const abort = new AbortController()
    controller.current = abort
    setExchanges((all) => [...all, { question: text, status: 'running', turns: [] }])
    setQuestion('')
    let answered = false
    try {
      await streamAsk(
        { question: text, ...(conversationId && { conversationId }) },
        (message) => {
          const action = actionOf(message)
          if (!action) return
          if (action.type === 'done') {
            answered = true
            setConversationId(action.result.id)
            showConversation(action.result.id)
          }
          if (action.type === 'error') answered = true
          dispatch(action)
        },
        abort.signal,
      )
      if (!answered && !abort.signal.aborted) dispatch({ type: 'error', message: 'The answer stream ended early.' })
    } catch (error) {
      const e = error instanceof ApiError ? error : new ApiError(String(error), 0)
      dispatch({ type: 'error', message: e.message, ...(e.code && { code: e.code }) })
    }
  }

  const submit = (e: Event) => {
    e.preventDefault()
    const text = question.trim()
    if (text && !running) void ask(text)
  }

  const startOver = () => {
    controller.current?.abort()
    setExchanges([])
    setConversationId(undefined)
    setNotice(undefined)
    showConversation(undefined)
    input.current?.focus()
  }

  return (
    <section class="ask-view" aria-labelledby="ask-title">
      <h1 id="ask-title" class="visually-hidden">
        Ask
      </h1>
      {notice && (
        <p class="notice" role="alert">
          {notice}
        </p>
      )}
      {exchanges.map((x, i) => (
        <ExchangeView key={i} exchange={x} index={i} />
      ))}
      <form class="ask-form" onSubmit={submit}>
        <label for="ask-question">{conversationId ? 'Follow-up question' : 'Ask a question'}</label>
        <textarea
          id="ask-question"
          ref={input}
          rows={2}
          maxLength={MAX_QUESTION_CHARS}
          value={question}
          placeholder="When did Node.js ship a global fetch?"
          onInput={(e) => setQuestion(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) submit(e)
          }}
        />
        <div class="row">
          <button type="submit" class="primary" disabled={running || !question.trim()}>
            {conversationId ? 'Follow up' : 'Ask'}
          </button>
          {exchanges.length > 0 && (
            <button type="button" class="ghost" onClick={startOver} disabled={running}>
              New conversation
            </button>
          )}
          {conversationId && <span class="muted conversation-id">conversation {conversationId}</span>}
        </div>
      </form>
    </section>
  )
}
